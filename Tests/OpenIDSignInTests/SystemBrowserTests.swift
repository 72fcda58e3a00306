import DevProvider
import Foundation
import OpenIDConnect
import OpenIDSignIn
import Testing
import TestSupport

/// The person's browser as the user agent (RFC 8252): the loopback listener (plain sockets, no
/// libsoup) takes only its answer; a real `curl` or a scripted browser over real HTTP plays the browser.
@Suite("The system browser's user agent and its loopback listener")
struct SystemBrowserTests {
    /// alice in the person's browser (``ScriptedBrowser``).
    static let scriptedBrowser = SystemBrowser.custom { url in
        try await ScriptedBrowser.signIn(at: url, username: "alice", password: OpenIDProvider.User.alice.password)
    }

    /// A presentation of `url` through `agent`, whose listener is made first.
    func present(_ agent: SystemBrowserUserAgent, _ url: String, state: String = "s3cr3t") async throws -> RedirectCallback {
        let redirect = try await agent.redirectURI(for: try RedirectURI("http://127.0.0.1/callback"))
        return try await agent.present(AuthorizationPresentation(url: URL(string: url)!, redirectURI: redirect, expectedState: state,
                                                                 purpose: .authorization))
    }

    @Test("a sign-in with a pushed request, whose URL has no state, completes in the browser")
    func pushedSignIn() async throws {
        var settings = DevProviderConfiguration()
        settings.clients = [OpenIDProvider.Client(clientID: "desktop-app", redirectURIs: ["http://127.0.0.1/callback"])]
        settings.requirePushedAuthorizationRequests = true
        let provider = try await OpenIDProvider.start(configuration: settings)
        let client = OpenIDClient(issuer: provider.issuer, clientID: "desktop-app", redirectURI: try RedirectURI("http://127.0.0.1/callback"))
        let result = try await client.signIn(using: SystemBrowserUserAgent(browser: Self.scriptedBrowser), scopes: ["openid", "offline_access"])
        #expect(result.idToken.subject == OpenIDProvider.User.alice.subject)
        #expect(result.request.redirectURI.string.hasPrefix("http://127.0.0.1:") && result.request.redirectURI.path == "/callback")
        #expect(result.tokens?.refreshToken != nil)
    }

    @Test("a browser that cannot be opened, a cancelled wait, a timeout and an unprepared redirect URI are typed errors")
    func failures() async throws {
        do {
            _ = try await present(SystemBrowserUserAgent(browser: .command(["/nonexistent/browser"])), "http://127.0.0.1:1/?state=s")
            Issue.record("no browser, no error")
        } catch AuthorizationUserAgentError.browserUnavailable(.exited(program: "/nonexistent/browser", _)) {}
        let waiting = Task { try await present(SystemBrowserUserAgent(browser: .custom { _ in }), "http://127.0.0.1:1/?state=s") }
        waiting.cancel()
        do {
            _ = try await waiting.value
            Issue.record("not cancelled")
        } catch AuthorizationUserAgentError.cancelled {}
        do {
            _ = try await present(SystemBrowserUserAgent(browser: .custom { _ in }, timeout: .milliseconds(200)), "http://127.0.0.1:1/?state=s")
            Issue.record("no timeout")
        } catch AuthorizationUserAgentError.timedOut(after: .milliseconds(200), _) {}
        let unprepared = SystemBrowserUserAgent(browser: .custom { _ in })
        await #expect(throws: AuthorizationUserAgentError.self) {
            try await unprepared.present(AuthorizationPresentation(url: URL(string: "http://127.0.0.1:1/")!,
                                                                   redirectURI: try RedirectURI("http://127.0.0.1:9/callback"),
                                                                   expectedState: "s", purpose: .authorization))
        }
        await #expect(throws: AuthorizationUserAgentError.self) {
            try await SystemBrowserUserAgent(redirectPath: "callback").redirectURI(for: try RedirectURI("http://127.0.0.1/callback"))
        }
    }

    /// A shell script with curl standing in for the browser: it sends a request for each entry
    /// of `requests` (curl arguments, in which `REDIRECT` stands for the redirect URI, `PORT` for
    /// its port and `STATE` for the presentation's `state`, all read from the URL it is opened
    /// with) one after another, and appends each HTTP status it gets to the file `statuses`.
    static func curlBrowser(_ requests: [String], statuses: URL) -> SystemBrowser {
        let script = ["state=$(printf '%s' \"$1\" | sed -n 's/.*[?&]state=\\([^&]*\\).*/\\1/p')",
                      "port=$(printf '%s' \"$1\" | sed -n 's/.*[?&]port=\\([0-9]*\\).*/\\1/p')"]
            + requests.map { request in
                let filled = request.replacingOccurrences(of: "REDIRECT", with: "http://127.0.0.1:$port/callback")
                    .replacingOccurrences(of: "PORT", with: "$port").replacingOccurrences(of: "STATE", with: "$state")
                return "curl -s -o /dev/null -w '%{http_code}\\n' \(filled) >> \"$STATUSES\""
            }
        return .command(["env", "STATUSES=\(statuses.path)", "sh", "-c", script.joined(separator: "\n"), "browser"])
    }

    /// The callback a `curl` browser sending `requests` brings back; `statuses` gets its statuses.
    func curlPresentation(_ requests: [String], statuses: URL) async throws -> RedirectCallback {
        let agent = SystemBrowserUserAgent(browser: Self.curlBrowser(requests, statuses: statuses), timeout: .seconds(30))
        let redirect = try await agent.redirectURI(for: try RedirectURI("http://127.0.0.1/callback"))
        let url = URL(string: "http://127.0.0.1:1/authorize?client_id=app&state=s3cr3t&port=\(try #require(redirect.port))")!
        return try await agent.present(AuthorizationPresentation(url: url, redirectURI: redirect, expectedState: "s3cr3t", purpose: .authorization))
    }

    @Test("a request with another state or none is answered 400 and the wait goes on; the one with the request's state is captured")
    func wrongState() async throws {
        let statuses = FileManager.default.temporaryDirectory.appendingPathComponent("statuses-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: statuses) }
        let callback = try await curlPresentation(["\"REDIRECT?code=forged&state=guessed\"", "\"REDIRECT?code=forged\"",
                                                   "\"REDIRECT?code=real&state=STATE\""], statuses: statuses)
        #expect(callback["code"] == "real")
        // The script is still running its last curl; the earlier two have finished.
        #expect(try String(contentsOf: statuses, encoding: .utf8).hasPrefix("400\n400\n"))
    }

    @Test("a request that names another host (DNS rebinding) is answered 400, even with the request's state")
    func wrongHost() async throws {
        let statuses = FileManager.default.temporaryDirectory.appendingPathComponent("statuses-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: statuses) }
        let callback = try await curlPresentation(["-H 'Host: rebound.example:PORT' \"REDIRECT?code=forged&state=STATE\"",
                                                   "-H 'Host: localhost:PORT' \"REDIRECT?code=forged&state=STATE\"",
                                                   "\"REDIRECT?code=real&state=STATE\""], statuses: statuses)
        #expect(callback["code"] == "real")
        // The script is still running its last curl; the earlier two have finished.
        #expect(try String(contentsOf: statuses, encoding: .utf8).hasPrefix("400\n400\n"))
    }

    @Test("a form POST with the request's state is taken, its body read; other paths are answered 404")
    func formPost() async throws {
        let statuses = FileManager.default.temporaryDirectory.appendingPathComponent("statuses-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: statuses) }
        let callback = try await curlPresentation(["\"http://127.0.0.1:PORT/other?state=STATE\"",
                                                   "--data \"code=posted&state=STATE\" \"REDIRECT\""], statuses: statuses)
        #expect(callback["code"] == "posted" && callback.parameters["code"]?.source == .formPost)
        #expect(try String(contentsOf: statuses, encoding: .utf8).hasPrefix("404\n"))
    }
}
