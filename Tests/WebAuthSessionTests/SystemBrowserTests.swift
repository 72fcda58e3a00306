import DevProvider
import Foundation
import OpenIDConnect
import Testing
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

        /// A scripted stand-in for the person's browser: it loads the page, signs in as alice,
        /// first asks the listener for a path it must not answer, then follows the redirect.
        static let scriptedBrowser = SystemBrowser.custom { url in
            let http = URLSessionHTTPClient()
            let login = try await http.send(HTTPRequest(method: "POST", url: url, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                        body: Data("username=alice&password=wonderland".utf8)))
            guard let location = login.headers["location"], let redirect = URL(string: location) else {
                throw URLError(.badServerResponse)
            }
            var other = URLComponents(url: redirect, resolvingAgainstBaseURL: false)!
            other.path = "/favicon.ico"
            other.query = nil
            let stray = try await http.send(HTTPRequest(url: other.url!))
            guard stray.status == 404 else { throw URLError(.badServerResponse) }
            let landing = try await http.send(HTTPRequest(url: redirect))
            guard String(decoding: landing.body, as: UTF8.self).contains("You can close this tab") else { throw URLError(.badServerResponse) }
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
