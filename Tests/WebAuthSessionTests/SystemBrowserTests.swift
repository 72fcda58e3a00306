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

        @Test("a browser that cannot be opened, a cancelled wait and a timeout are typed errors")
        func failures() async throws {
            let missing = try await SystemBrowserSession()
            await #expect(throws: WebAuthenticationError.self) {
                try await missing.start(url: URL(string: "http://127.0.0.1:1/?state=s")!, browser: .command(["/nonexistent/browser"]))
            }
            let waiting = try await SystemBrowserSession()
            let run = Task { try await waiting.start(url: URL(string: "http://127.0.0.1:1/?state=s")!, browser: .custom { _ in }) }
            waiting.cancel()
            await #expect(throws: WebAuthenticationError.cancelled) { try await run.value }
            let slow = try await SystemBrowserSession()
            do {
                _ = try await slow.start(url: URL(string: "http://127.0.0.1:1/?state=s")!, browser: .custom { _ in }, timeout: .milliseconds(200))
                Issue.record("no timeout")
            } catch {
                guard case .timedOut = error else { throw error }
            }
            let stateless = try await SystemBrowserSession()
            await #expect(throws: WebAuthenticationError.invalidOption(.authorizationURLWithoutState)) {
                try await stateless.start(url: URL(string: "http://127.0.0.1:1/")!, browser: .custom { _ in })
            }
        }

        /// A shell script with curl standing in for the browser: it sends a request for each entry
        /// of `requests` (curl arguments, in which `STATE` stands for the authorization URL's
        /// `state`) one after another, and appends each HTTP status it gets to the file `statuses`.
        static func curlBrowser(_ requests: [String], statuses: URL) -> SystemBrowser {
            let script = ["state=$(printf '%s' \"$1\" | sed -n 's/.*[?&]state=\\([^&]*\\).*/\\1/p')"]
                + requests.map { "curl -s -o /dev/null -w '%{http_code}\\n' \($0.replacingOccurrences(of: "STATE", with: "$state")) >> \"$STATUSES\"" }
            return .command(["env", "STATUSES=\(statuses.path)", "sh", "-c", script.joined(separator: "\n"), "browser"])
        }

        @Test("a request with another state or none is answered 400 and the wait goes on; the one with the request's state is captured")
        func wrongState() async throws {
            let statuses = FileManager.default.temporaryDirectory.appendingPathComponent("statuses-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: statuses) }
            let session = try await SystemBrowserSession()
            let redirect = await session.redirectURI.string
            let browser = Self.curlBrowser(["\"\(redirect)?code=forged&state=guessed\"", "\"\(redirect)?code=forged\"",
                                            "\"\(redirect)?code=real&state=STATE\""], statuses: statuses)
            let callback = try await session.start(url: URL(string: "http://127.0.0.1:1/authorize?client_id=app&state=s3cr3t")!,
                                                   browser: browser, timeout: .seconds(30))
            #expect(callback["code"] == "real")
            // The script is still running its last curl; the earlier two have finished.
            #expect(try String(contentsOf: statuses, encoding: .utf8).hasPrefix("400\n400\n"))
        }

        @Test("a request that names another host (DNS rebinding) is answered 400, even with the request's state")
        func wrongHost() async throws {
            let statuses = FileManager.default.temporaryDirectory.appendingPathComponent("statuses-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: statuses) }
            let session = try await SystemBrowserSession()
            let redirect = await session.redirectURI.string
            let port = try #require(URLComponents(string: redirect)?.port)
            let browser = Self.curlBrowser(["-H 'Host: rebound.example:\(port)' \"\(redirect)?code=forged&state=STATE\"",
                                            "-H 'Host: localhost:\(port)' \"\(redirect)?code=forged&state=STATE\"",
                                            "\"\(redirect)?code=real&state=STATE\""], statuses: statuses)
            let callback = try await session.start(url: URL(string: "http://127.0.0.1:1/authorize?state=s3cr3t")!,
                                                   browser: browser, timeout: .seconds(30))
            #expect(callback["code"] == "real")
            // The script is still running its last curl; the earlier two have finished.
            #expect(try String(contentsOf: statuses, encoding: .utf8).hasPrefix("400\n400\n"))
        }
    }
}
