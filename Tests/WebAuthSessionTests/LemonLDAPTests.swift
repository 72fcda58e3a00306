import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// The client against an enterprise provider: LemonLDAP::NG 2.16 (Debian's), its real portal
    /// run by Fixtures/lemonldap/llng_provider.pl once per test run (``LemonLDAPProvider``), signed
    /// in to with the login scripts in Fixtures/lemonldap. Each test signs in a user of its own, so
    /// the consents they give do not depend on the order the tests run in. The responses come as
    /// `form_post`: a 302 to the custom-scheme redirect URI answering the portal's consent form
    /// (posted to "#") never reached the engine's decide-policy hook when these tests were written.
    @Suite("Against LemonLDAP::NG")
    struct LemonLDAP {
        static let redirect = "com.example.webauth:/callback"

        /// The login script Fixtures/lemonldap/NAME.yaml, run as `user` (Demo users' password is their login).
        /// A failed step leaves its report (the page's text, a screenshot, the navigation log) in
        /// `$WEBAUTH_ARTIFACTS_DIR` when it is set, as CI sets it: the portal's page says why, the error only where.
        static func login(_ name: String, user: String, provider: LemonLDAPProvider) throws -> @Sendable (WebAuthenticationSession) async throws -> Void {
            let path = Bundle.module.path(forResource: name, ofType: "yaml", inDirectory: "Fixtures/lemonldap")!
            var environment = ProcessInfo.processInfo.environment
            environment["LLNG_USER"] = user
            environment["LLNG_PASSWORD"] = user
            environment["TOTP_SECRET"] = provider.totpSecret
            let artifacts = environment["WEBAUTH_ARTIFACTS_DIR"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            return try LoginScript(contentsOfFile: path).runner(environment: environment, artifactsDirectory: artifacts)
        }

        /// The OAuth error the token endpoint answers a refresh with, or nil if it gave tokens.
        static func refusal(of refreshToken: String, at endpoint: TokenEndpoint) async throws -> String? {
            do {
                _ = try await endpoint.refresh(refreshToken: refreshToken)
                return nil
            } catch {
                guard case .token(let oauth) = error else { throw error }
                return oauth.error
            }
        }

        /// Registers a key of the virtual authenticator `passkey` as `user`'s WebAuthn second factor,
        /// on the portal's own registration page for a signed-in user (its relying party ID: localhost).
        static func registerKey(of user: String, in passkey: VirtualAuthenticatorSettings, on provider: LemonLDAPProvider) async throws {
            var register = try LoginScript(contentsOfFile: Bundle.module.path(forResource: "webauthn-register", ofType: "yaml",
                                                                            inDirectory: "Fixtures/lemonldap")!)
            register.passkey = passkey
            register.settleTimeout = nil
            let page = try TestEngine.session(URL(string: provider.issuer + "/2fregisters/webauthn")!, redirectURI: Self.redirect)
            let registration = Task { try await page.start() }
            try await register.run(in: page, environment: ["LLNG_USER": user, "LLNG_PASSWORD": user])
            page.cancel()
            _ = await registration.result
        }

        func publicClient(_ provider: LemonLDAPProvider) throws -> OpenIDConnectClient {
            OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-public", redirectURI: try RedirectURI(Self.redirect))
        }

        @Test("a confidential client (client_secret_basic) signs in with a password, then refresh, userinfo and RP-initiated logout")
        func lifecycle() async throws {
            let provider = try await LemonLDAPProvider.shared.value
            let authentication = ClientAuthentication.clientSecretBasic(secret: provider.clientSecret)
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-confidential",
                                             redirectURI: try RedirectURI(Self.redirect), authentication: authentication)
            // The response as a form post here (the other tests use the query).
            let result = try await client.signIn(scopes: ["openid", "profile", "email"], responseMode: .formPost, options: TestEngine.options(),
                                                 script: Self.login("consent", user: "dwho", provider: provider))
            #expect(result.idToken.issuer == provider.issuer)
            #expect(result.idToken.audiences == ["webauth-confidential"])
            #expect(result.idToken.subject == "dwho")
            let refreshToken = try #require(result.tokens?.refreshToken)

            let manager = AuthStateManager(state: result.authState, authentication: authentication, http: URLSessionHTTPClient())
            let refreshed = try await manager.refreshNow()
            #expect(refreshed.accessToken != nil && refreshed.accessToken != result.tokens?.accessToken, "the refresh brought a new access token")
            let claims = try await manager.userinfo()
            #expect(claims["sub"]?.stringValue == "dwho")
            #expect(claims["preferred_username"]?.stringValue == "dwho")
            #expect(claims["email"]?.stringValue == "dwho@badwolf.org")

            let wrongSecret = TokenEndpoint(configuration: result.configuration, clientID: "webauth-confidential",
                                            authentication: .clientSecretBasic(secret: "not-" + provider.clientSecret), http: URLSessionHTTPClient())
            #expect(try await Self.refusal(of: refreshed.refreshToken ?? refreshToken, at: wrongSecret) == "invalid_client")

            // RP-initiated logout: end_session with id_token_hint, back at the post-logout redirect URI with
            // the state sent. (Each session has its own cookie jar here, so the portal sees no SSO cookie
            // on this page and cannot end that session: whether it is gone is not checked. A persistent
            // profile shared by both pages stops at the portal's /oauth2 page: not yet understood.)
            let signedOut = try await client.signOut(await manager.state, options: TestEngine.options())
            #expect(signedOut.reauthenticationReason == .signedOut)
        }

        @Test("password, then the TOTP second factor, through the public client with PKCE")
        func passwordAndTOTP() async throws {
            let provider = try await LemonLDAPProvider.shared.value
            let result = try await publicClient(provider).signIn(options: TestEngine.options(),
                                                                 script: Self.login("totp", user: "rtyler", provider: provider))
            #expect(result.idToken.subject == "rtyler")
            #expect(result.tokens?.accessToken != nil)
        }

        @Test("consent is asked the first time and remembered the next, in a new browser session")
        func consentRemembered() async throws {
            let provider = try await LemonLDAPProvider.shared.value
            let client = try publicClient(provider)
            // The first script waits for the consent screen and accepts it: it fails if none appears.
            let first = try await client.signIn(options: TestEngine.options(), script: Self.login("consent", user: "msmith", provider: provider))
            #expect(first.idToken.subject == "msmith")
            // A fresh cookie jar (ephemeral sessions), so a new SSO session; the script has no consent
            // step, so a consent screen would stop it (the page settles with no redirect) and fail.
            let second = try await client.signIn(options: TestEngine.options(), script: Self.login("remembered", user: "msmith", provider: provider))
            #expect(second.idToken.subject == "msmith")
            #expect(second.idToken.rawValue != first.idToken.rawValue)
        }

        @Test("its WebAuthn second factor: a key registered on the portal, then password and the key, headless, from login scripts")
        func passwordAndWebAuthn() async throws {
            let provider = try await LemonLDAPProvider.shared.value
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("llng-passkeys-\(UUID().uuidString).json").path
            defer { try? FileManager.default.removeItem(atPath: file); try? FileManager.default.removeItem(atPath: file + ".lock") }
            let passkey = VirtualAuthenticatorSettings(credentialsFile: file)
            var environment = ProcessInfo.processInfo.environment
            (environment["LLNG_USER"], environment["LLNG_PASSWORD"]) = ("jharkness", "jharkness")
            try await Self.registerKey(of: "jharkness", in: passkey, on: provider)
            #expect(try VirtualAuthenticator(settings: passkey).credentials.map(\.relyingPartyID) == ["localhost"])
            // The OpenID sign-in: password, then the portal asks for the key, then consent.
            var signIn = try LoginScript(contentsOfFile: Bundle.module.path(forResource: "webauthn", ofType: "yaml", inDirectory: "Fixtures/lemonldap")!)
            signIn.passkey = passkey
            let result = try await publicClient(provider).signIn(options: TestEngine.options(), script: signIn.runner(environment: environment))
            #expect(result.idToken.subject == "jharkness")
            #expect(try VirtualAuthenticator(settings: passkey).credentials.first?.signCount == 1, "the portal's WebAuthn check was signed")
        }
    }
}
