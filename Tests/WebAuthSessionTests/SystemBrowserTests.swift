import DevProvider
import Foundation
import OpenIDConnect
import Testing
import TestSupport
@testable import WebAuthSession

extension EngineTests {
    /// Providers that refuse embedded views, and the RFC 8252 fallback to the system browser.
    @Suite("When the embedded view is refused: the system browser")
    struct SystemBrowserFallback {
        /// A provider that refuses embedded views, with a client registered for the engine's custom
        /// scheme and for a loopback redirect on any port.
        func provider() async throws -> OpenIDProvider {
            var settings = DevProviderConfiguration()
            settings.clients = [OpenIDProvider.Client(clientID: "desktop-app",
                                                      redirectURIs: ["com.example.webauth:/callback", "http://127.0.0.1/callback"])]
            settings.faults = [.disallowedUserAgent]
            return try await OpenIDProvider.start(configuration: settings)
        }

        /// alice in the person's browser (``ScriptedBrowser``).
        static let scriptedBrowser = SystemBrowser.custom { url in
            try await ScriptedBrowser.signIn(at: url, username: "alice", password: OpenIDProvider.User.alice.password)
        }

        @Test("the refusal is detected and named; the same sign-in then works in the browser with a loopback listener")
        func fallback() async throws {
            let provider = try await provider()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "desktop-app",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            do {
                _ = try await client.signIn(options: TestEngine.options())
                Issue.record("the embedded view was not refused")
            } catch {
                guard case .session(.embeddedViewRefused(let url, let host)) = error else { throw error }
                #expect(url.hasPrefix(provider.issuer + "/authorize?") && host == "127.0.0.1")
            }
            let result = try await client.signInWithSystemBrowser(scopes: ["openid", "offline_access"], browser: Self.scriptedBrowser)
            #expect(result.idToken.subject == OpenIDProvider.User.alice.subject)
            #expect(result.request.redirectURI.string.hasPrefix("http://127.0.0.1:") && result.request.redirectURI.path == "/callback")
            #expect(result.tokens?.refreshToken != nil)
        }

        @Test("with pushed authorization requests the browser opens a URL without state, and the answer is still checked against the request's")
        func pushedRequest() async throws {
            var settings = DevProviderConfiguration()
            settings.clients = [OpenIDProvider.Client(clientID: "desktop-app", redirectURIs: ["http://127.0.0.1/callback"])]
            settings.requirePushedAuthorizationRequests = true
            let provider = try await OpenIDProvider.start(configuration: settings)
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "desktop-app",
                                             redirectURI: try RedirectURI("http://127.0.0.1/callback"))
            let result = try await client.signInWithSystemBrowser(browser: Self.scriptedBrowser)
            #expect(result.idToken.subject == OpenIDProvider.User.alice.subject)
        }
    }
}
