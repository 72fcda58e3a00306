import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import TestSupport
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// The whole sign-in against a real provider on 127.0.0.1, through the real engine.
    @Suite("OpenID Connect sign-in, end to end")
    struct OpenIDSignIn {
        /// Held for the whole run, so the port stays this suite's for the engine to bind.
        static let loopbackPort = try! PortReservation()
        static let loopbackRedirect = "http://127.0.0.1:\(loopbackPort.port)/callback"

        func provider() async throws -> OpenIDProvider {
            try await OpenIDProvider.start(clients: [
                .demo, OpenIDProvider.Client(clientID: "loopback-app", redirectURIs: [Self.loopbackRedirect]),
            ])
        }

        /// The login script: a wrong password first, then alice's.
        static let login = LoginScript([
            .fill("#username", .literal("alice")), .fill("#password", .environment("WRONG")), .click("#sign-in"),
            .waitForElement("#error"),
            .fill("#username", .literal("alice")), .fill("#password", .environment("RIGHT")), .click("#sign-in"),
        ]).runner(environment: ["WRONG": "wrong", "RIGHT": OpenIDProvider.User.alice.password])

        @Test("code flow with PKCE: discovery, login, response checks, exchange, ID token",
              arguments: [(OpenIDProvider.Client.demo.clientID, OpenIDProvider.Client.demo.redirectURIs[0], nil as AuthorizationRequest.ResponseMode?),
                          (OpenIDProvider.Client.demo.clientID, OpenIDProvider.Client.demo.redirectURIs[0], .formPost),
                          ("loopback-app", loopbackRedirect, nil), ("loopback-app", loopbackRedirect, .formPost)])
        func signIn(clientID: String, redirect: String, mode: AuthorizationRequest.ResponseMode?) async throws {
            let provider = try await provider()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: clientID, redirectURI: try RedirectURI(redirect))
            let result = try await client.signIn(scopes: ["openid", "profile", "offline_access"], responseMode: mode,
                                                 additionalParameters: ["login_hint": "alice"], options: TestEngine.options(), script: Self.login)
            #expect(result.idToken.subject == OpenIDProvider.User.alice.subject)
            #expect(result.idToken.nonce == result.request.nonce)
            #expect(result.tokens?.refreshToken != nil)
            #expect(!result.description.contains(result.tokens!.accessToken))
            #expect(provider.requestCount("/.well-known/openid-configuration") == 1)
        }

        @Test("the code works once; refresh tokens rotate")
        func replayAndRotation() async throws {
            let provider = try await provider()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            let result = try await client.signIn(scopes: ["openid", "offline_access"], options: TestEngine.options(), script: Self.login)
            let endpoint = TokenEndpoint(configuration: result.configuration, clientID: "webauth-demo", http: URLSessionHTTPClient())
            let code = try #require(result.authorizationResponse.code)
            await #expect(throws: OpenIDConnectError.self) { try await endpoint.exchange(code: code, for: result.request) }

            let first = try #require(result.tokens?.refreshToken)
            let refreshed = try await endpoint.refresh(refreshToken: first)
            #expect(refreshed.refreshToken != nil && refreshed.refreshToken != first)
            do {
                _ = try await endpoint.refresh(refreshToken: first)
                Issue.record("a rotated refresh token was accepted again")
            } catch {
                guard case .token(let oauth) = error else { throw error }
                #expect(oauth.isInvalidGrant)
            }
            #expect(provider.refreshCount == 2)
        }

        @Test("a failing login script ends the sign-in with the script's error and closes the page")
        func scriptFails() async throws {
            let provider = try await provider()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            do {
                _ = try await client.signIn(options: TestEngine.options()) { session in
                    try await session.waitForElement("#no-such-field", timeout: .milliseconds(300))
                }
                Issue.record("signed in without a login")
            } catch {
                guard case .script(.pageScript(.timedOut(let condition, _, _))) = error else { throw error }
                #expect(condition.contains("#no-such-field"))
            }
            #expect(await WebAuthEngine.diagnostics.liveWebViews == 0)
        }

        @Test("an unregistered redirect URI is never redirected to: the provider's error page ends the sign-in, nothing is captured")
        func unregisteredRedirect() async throws {
            let provider = try await provider()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.evil:/callback"))
            do {
                _ = try await client.signIn(options: TestEngine.options(timeout: .seconds(60)))
                Issue.record("signed in with an unregistered redirect URI")
            } catch {
                guard case .session(.providerErrorPage(let status, let page)) = error else { throw error }
                #expect(status == 400 && page.title == "Invalid redirect URI")
                #expect(page.message == "The redirect URI is not registered for this application.")
            }
        }
    }
}

extension EngineTests.OpenIDSignIn {
    @Test("sign out through the end-session endpoint, caught like a sign-in, with the ID token as hint")
    func signOut() async throws {
        let provider = try await provider()
        let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                         redirectURI: try RedirectURI("com.example.webauth:/callback"))
        let result = try await client.signIn(options: TestEngine.options(), script: Self.login)
        let signedOut = try await client.signOut(result.authState, options: TestEngine.options())
        #expect(signedOut.reauthenticationReason == .signedOut)
        #expect(provider.logoutHints == [result.idToken.rawValue])
    }
}

extension EngineTests.OpenIDSignIn {
    @Test("sign out can clear the profile's cookies and the stored state")
    func signOutClears() async throws {
        let provider = try await provider()
        let site = try await TestSite.start()
        let cookiePage = site.page(body: """
            <script>const had = document.cookie; document.cookie = 'visitor=1; max-age=3600';
            location.href = 'com.example:/cb?cookie=' + encodeURIComponent(had)</script>
            """)
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-profile-\(UUID().uuidString)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-store-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: profile)
            try? FileManager.default.removeItem(at: scratch)
        }
        var options = TestEngine.options()
        options.websiteData = .persistent(profileDirectory: profile)
        func visitCookiePage() async throws -> String? {
            try await TestEngine.session(cookiePage, redirectURI: "com.example:/cb", options: options).start()["cookie"]
        }
        _ = try await visitCookiePage()
        #expect(try await visitCookiePage() == "visitor=1")

        let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                         redirectURI: try RedirectURI("com.example.webauth:/callback"))
        let result = try await client.signIn(options: options, script: Self.login)
        let store = try FileAuthStateStore(name: "app", directory: scratch)
        try store.save(result.authState)
        _ = try await client.signOut(result.authState, options: options, clearWebsiteData: true, store: store)
        #expect(try store.load() == nil)
        #expect(try await visitCookiePage() == "", "the profile's cookie survived sign-out")
    }
}

extension EngineTests.OpenIDSignIn {
    @Test("max_age and prompt=login reach the ID-token check: a fresh login passes, one an hour old is refused",
          arguments: [(["max_age": "600", "prompt": "login"], false), (["max_age": "600"], true), (["prompt": "login"], true)])
    func authTime(parameters: [String: String], staleLogin: Bool) async throws {
        let provider = try await provider()
        if staleLogin { provider.faults = [.staleAuthTime] }
        let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                         redirectURI: try RedirectURI("com.example.webauth:/callback"))
        do {
            let result = try await client.signIn(additionalParameters: parameters, options: TestEngine.options(), script: Self.login)
            #expect(!staleLogin, "signed in with a login an hour old")
            #expect(result.idToken.claims["auth_time"] != nil)
        } catch {
            switch error {
            case .openIDConnect(.idToken(.authenticationTooOld)) where staleLogin && parameters["max_age"] != nil: break
            case .openIDConnect(.idToken(.authenticationBeforeRequest)) where staleLogin && parameters["prompt"] != nil: break
            default: Issue.record("\(parameters): \(error)")
            }
        }
    }
}
