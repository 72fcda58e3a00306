import CWebKitGTK
import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import TestSupport
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// The client against an independent, widely used provider: django-oauth-toolkit (PyPI), run
    /// by Fixtures/dot_provider.py on 127.0.0.1 with PKCE required and its consent page shown.
    @Suite("Against django-oauth-toolkit")
    struct DjangoOAuthToolkit {
        static let redirect = "com.example.webauth:/callback"

        /// Django's login form, then the consent page: allow or deny.
        static func login(allow: Bool) -> @Sendable (WebAuthenticationSession) async throws -> Void {
            LoginScript([
                .fill("#id_username", .literal("alice")), .fill("#id_password", .environment("PASSWORD")), .click("#sign-in"),
                .click(allow ? "input[name=allow]" : "input[type=submit]:not([name=allow])"),
            ]).runner(environment: ["PASSWORD": "wonderland"])
        }

        func client(_ server: PythonFixtureServer) throws -> OpenIDConnectClient {
            OpenIDConnectClient(issuer: server.url("/o").absoluteString, clientID: "webauth-test", redirectURI: try RedirectURI(Self.redirect))
        }

        func refreshCount(_ server: PythonFixtureServer) async throws -> Int {
            let response = try await URLSessionHTTPClient().send(HTTPRequest(url: server.url("/test/counts")))
            return Int(try JSONValue(parsing: String(decoding: response.body, as: UTF8.self))["refresh"]?.numberValue ?? -1)
        }

        @Test("sign in through the real engine, then single-flight refresh, userinfo, revocation and logout")
        func lifecycle() async throws {
            let server = try await PythonFixtureServer(script: "dot_provider")
            let client = try client(server)
            let result = try await client.signIn(scopes: ["openid", "profile", "email"], options: TestEngine.options(),
                                                 script: Self.login(allow: true))
            #expect(result.idToken.issuer == server.url("/o").absoluteString)
            #expect(result.idToken.audiences == ["webauth-test"])
            #expect(result.tokens?.refreshToken != nil)

            // Tokens live 30 s here, inside the 60 s tolerance: every caller finds them stale.
            let manager = AuthStateManager(state: result.authState, http: URLSessionHTTPClient())
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { try await manager.freshAccessToken() } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
            #expect(try await refreshCount(server) == 1, "concurrent callers caused exactly one refresh, counted by the server")

            let claims = try await manager.userinfo()
            #expect(claims["sub"]?.stringValue == result.idToken.subject)

            let state = await manager.state
            let signedOut = try await client.signOut(state, options: TestEngine.options())
            #expect(signedOut.reauthenticationReason == .signedOut)

            // django-oauth-toolkit has a revocation endpoint but does not advertise it: given by hand.
            var configuration = state.configuration
            configuration.revocationEndpoint = server.url("/o/revoke_token/")
            let endpoint = TokenEndpoint(configuration: configuration, clientID: "webauth-test", http: URLSessionHTTPClient())
            try await endpoint.revoke(try #require(state.refreshToken), hint: "refresh_token")
            do {
                _ = try await endpoint.refresh(refreshToken: try #require(state.refreshToken))
                Issue.record("a revoked refresh token was accepted")
            } catch let error as OpenIDConnectError {
                guard case .token(let oauth) = error else { throw error }
                #expect(oauth.isInvalidGrant)
            }
        }

        /// django-oauth-toolkit saves a code exchange's tokens in one transaction that reads before it
        /// writes. Under SQLite's default deferred transactions, an exchange whose read lock must become
        /// a write lock while another holds it fails at once, whatever the busy timeout ("database is
        /// locked", HTTP 500: the failures of 2, 4 and 8 sign-ins at once in the benchmark). The fixture
        /// opens its transactions IMMEDIATE (Django 5.2's `transaction_mode`), so they queue instead.
        /// Eight codes, got one after the other in one kept view, are exchanged at the same moment.
        @Test("eight codes exchanged at the same moment: django-oauth-toolkit answers each with tokens, none with HTTP 500")
        func exchangesAtOnce() async throws {
            let server = try await PythonFixtureServer(script: "dot_provider")
            let configuration = try await ProviderConfiguration.discover(issuer: server.url("/o").absoluteString, using: URLSessionHTTPClient())
            var options = TestEngine.options()
            options.reusableView = ReusableView()
            var granted: [(request: AuthorizationRequest, code: String)] = []
            for _ in 0..<8 {
                let request = AuthorizationRequest(clientID: "webauth-test", redirectURI: try RedirectURI(Self.redirect))
                let session = try TestEngine.session(request.url(authorizationEndpoint: configuration.authorizationEndpoint),
                                                     redirectURI: Self.redirect, options: options)
                let login = Task { try await Self.login(allow: true)(session) }
                let callback = try await session.start()
                try await login.value
                granted.append((request, try #require(callback["code"])))
            }
            let endpoint = TokenEndpoint(configuration: configuration, clientID: "webauth-test", http: URLSessionHTTPClient())
            let failures = await withTaskGroup(of: String?.self) { group in
                for (request, code) in granted {
                    group.addTask {
                        do { _ = try await endpoint.exchange(code: code, for: request); return nil } catch { return "\(error)" }
                    }
                }
                return await group.compactMap { $0 }.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(failures.isEmpty, "\(failures.count) of 8 exchanges failed, the first: \(failures.first ?? "")")
        }

        @Test("a confidential client whose ID tokens django-oauth-toolkit signs HS256 with its secret: client_secret_post, the sign-in's and the refresh's ID tokens validate with the secret")
        func hmacIDTokens() async throws {
            let server = try await PythonFixtureServer(script: "dot_provider")
            let secret = "hs256-client-secret-of-forty-bytes-long!"
            let client = OpenIDConnectClient(issuer: server.url("/o").absoluteString, clientID: "webauth-hs256",
                                             redirectURI: try RedirectURI(Self.redirect), authentication: .clientSecretPost(secret: secret),
                                             idTokenSigning: .algorithm(.hs256))
            let result = try await client.signIn(scopes: ["openid", "profile"], options: TestEngine.options(), script: Self.login(allow: true))
            #expect(result.idToken.audiences == ["webauth-hs256"])
            var state = result.authState
            state.client = SavedClient(redirectURI: Self.redirect, scopes: ["openid", "profile"], authenticationMethod: .clientSecretPost,
                                       idTokenSigning: .algorithm(.hs256))
            let manager = AuthStateManager(state: state, authentication: .clientSecretPost(secret: secret), http: URLSessionHTTPClient())
            _ = try await manager.freshAccessToken(minimumValidity: .seconds(3600))
            #expect(try await refreshCount(server) == 1)
            #expect(await manager.state.idToken?.subject == result.idToken.subject)
        }

        @Test("the person denies consent: access_denied, easy to tell apart")
        func denied() async throws {
            let server = try await PythonFixtureServer(script: "dot_provider")
            do {
                _ = try await client(server).signIn(options: TestEngine.options(), script: Self.login(allow: false))
                Issue.record("signed in although consent was denied")
            } catch let error as SignInError {
                #expect(error.isUserCancellation, "\(error)")
            }
        }
    }
}

extension EngineTests.DjangoOAuthToolkit {
    @Test("each presentation signs in to Django: the popup window, the kiosk, and headless, one after another")
    func presentations() async throws {
        let server = try await PythonFixtureServer(script: "dot_provider")
        let client = try client(server)
        for mode in ["window", "kiosk", "headless"] { try await signIn(client, server, mode: mode) }
    }

    private func signIn(_ client: OpenIDConnectClient, _ server: PythonFixtureServer, mode: String) async throws {
        let result: SignInResult
        switch mode {
        case "kiosk":
            _ = TestEngine.options()  // the private Xvfb
            let kiosk = await KioskStation(client: client, scopes: ["openid"])
            let events = kiosk.events
            Task {
                for await event in events {
                    guard case .startScreen = event else { continue }
                    await Task { @WebKitActor in
                        if let button = kiosk.startScreen?.button { gtk_button_clicked(cwk_button(button)) }
                    }.value
                    break
                }
            }
            result = try await kiosk.nextVisitor(script: Self.login(allow: true))
        default:
            result = try await client.signIn(options: TestEngine.options(mode == "window" ? .window() : .headless),
                                             script: Self.login(allow: true))
        }
        #expect(result.idToken.issuer == server.url("/o").absoluteString)
        #expect(await WebAuthEngine.diagnostics.toplevelWindows == 0, "\(mode) left a window")
    }

    @Test("dynamic client registration (RFC 7591, DCR_ENABLED): refused without the initial access token; the client registered with it signs in; RFC 7592 reads it")
    func dynamicClientRegistration() async throws {
        let server = try await PythonFixtureServer(script: "dot_provider", arguments: ["--dcr"])
        // django-oauth-toolkit names its registration endpoint in RFC 8414's metadata, not in OpenID discovery: given by hand.
        var given = try await ProviderConfiguration.discover(issuer: server.url("/o").absoluteString, using: URLSessionHTTPClient())
        given.registrationEndpoint = server.url("/o/register/")
        let provider = OpenIDConnectClient.Provider.configuration(given)
        let redirect = try RedirectURI(Self.redirect)
        let refused = await #expect(throws: OpenIDConnectError.self) {
            try await OpenIDConnectClient.register(provider: provider, redirectURIs: [redirect], clientName: "WebAuthSession DCR")
        }
        guard case .registration(.refused(401, _))? = refused else { Issue.record("refused with 401: \(String(describing: refused))"); return }
        let token = try String(contentsOf: server.workdir.appendingPathComponent("initial-access-token"), encoding: .utf8)
        let (configuration, registered) = try await OpenIDConnectClient.register(provider: provider, redirectURIs: [redirect],
                                                                                  clientName: "WebAuthSession DCR", initialAccessToken: token)
        #expect(registered.clientID != "webauth-test" && registered.clientSecret == nil && registered.redirectURIs == [Self.redirect])
        let client = OpenIDConnectClient(provider: .configuration(configuration), clientID: registered.clientID, redirectURI: redirect,
                                         authentication: try registered.authentication())
        let result = try await client.signIn(scopes: ["openid"], options: TestEngine.options(), script: Self.login(allow: true))
        #expect(result.idToken.audiences == [registered.clientID])
        let uri = try #require(registered.registrationClientURI)
        let read = try await URLSessionHTTPClient().send(HTTPRequest(url: uri, headers: ["Authorization": "Bearer " + (try #require(registered.registrationAccessToken))]))
        let described = try JSONValue(parsing: String(decoding: read.body, as: UTF8.self))
        #expect(read.status == 200 && described["client_id"]?.stringValue == registered.clientID)
    }
}
