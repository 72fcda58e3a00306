import CWebKitGTK
import Foundation
import OpenIDConnect
import SecretGate
import TestSupport
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// Pages that ask for HTTP authentication (a real `401` with a Basic or Digest challenge,
    /// checked by the server): a login script's `http_auth` answers them; wrong or missing
    /// credentials, and a kiosk, end the session with a typed error instead of a hang.
    @Suite("HTTP authentication asked by the page")
    struct HTTPAuthentication {
        static let alice = HTTPAuthenticationCredentials(username: "alice", password: .environment("SITE_PASSWORD"))

        /// Starts `session` beside a login script with `credentials`, a batch entry's `variables`, and no steps.
        static func signIn(_ session: WebAuthenticationSession, credentials: HTTPAuthenticationCredentials?, password: String = "s3cret-pw",
                           variables: [String: LoginValue]? = nil) async throws(WebAuthenticationError) -> RedirectCallback {
            let script = Task {
                var script = LoginScript([], settleTimeout: nil, httpAuthentication: credentials)
                script.variables = variables
                try await script.run(in: session, environment: ["SITE_PASSWORD": password])
            }
            defer { script.cancel() }
            return try await session.start()
        }

        @Test("a headless login script's http_auth reaches the page", arguments: ["basic", "digest"])
        func answered(scheme: String) async throws {
            let server = try await PythonFixtureServer(script: "http_auth_server")
            let session = try TestEngine.session(server.url("/\(scheme)"), redirectURI: "com.example:/cb")
            let callback = try await Self.signIn(session, credentials: Self.alice)
            #expect(callback["reached"] == scheme)
        }

        /// Before: the password went to any host that answered 401.
        @Test("the password goes only to the sign-in's host and the script's secret_hosts: another host's 401 ends the session with secretRefused")
        func otherHost() async throws {
            let server = try await PythonFixtureServer(script: "http_auth_server")
            let site = try await TestSite.start()
            let elsewhere = server.url("/basic").absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let start = site.page(body: "<script>location.href = \(js(elsewhere))</script>")
            let port = try #require(URL(string: elsewhere)?.port)
            let refused = try TestEngine.session(start, redirectURI: "com.example:/cb")
            let refusal = SecretRefusal(secret: .httpAuthenticationPassword(realm: "Basic area"), recipient: .site(scheme: "http", host: "localhost", port: port),
                                        reason: .hostNotAllowed(allowed: ["127.0.0.1"]))
            await #expect(throws: WebAuthenticationError.secretRefused(refusal)) {
                try await Self.signIn(refused, credentials: Self.alice)
            }
            let session = try TestEngine.session(start, redirectURI: "com.example:/cb")
            let script = Task {
                try await LoginScript([], secretHosts: ["localhost"], settleTimeout: nil, httpAuthentication: Self.alice)
                    .run(in: session, environment: ["SITE_PASSWORD": "s3cret-pw"])
            }
            defer { script.cancel() }
            #expect(try await session.start()["reached"] == "basic")
        }

        @Test("a wrong password is httpAuthenticationFailed, not a second try", arguments: ["basic", "digest"])
        func wrongPassword(scheme: String) async throws {
            let server = try await PythonFixtureServer(script: "http_auth_server")
            let session = try TestEngine.session(server.url("/\(scheme)"), redirectURI: "com.example:/cb")
            let realm = scheme == "basic" ? "Basic area" : "Digest area"
            await #expect(throws: WebAuthenticationError.httpAuthenticationFailed(host: "127.0.0.1", realm: realm)) {
                try await Self.signIn(session, credentials: Self.alice, password: "wrong")
            }
        }

        @Test("a headless script with no http_auth, or a literal password, fails at once with httpAuthenticationFailed",
              arguments: [nil, HTTPAuthenticationCredentials(username: "alice", password: .literal("s3cret-pw"))])
        func noCredentials(credentials: HTTPAuthenticationCredentials?) async throws {
            let server = try await PythonFixtureServer(script: "http_auth_server")
            let session = try TestEngine.session(server.url("/basic"), redirectURI: "com.example:/cb")
            await #expect(throws: WebAuthenticationError.httpAuthenticationFailed(host: "127.0.0.1", realm: "Basic area")) {
                try await Self.signIn(session, credentials: credentials)
            }
        }

        @Test("http_auth's password may be a batch entry's var: the source it names answers; a literal behind it does not")
        func passwordFromVariable() async throws {
            let server = try await PythonFixtureServer(script: "http_auth_server")
            let credentials = HTTPAuthenticationCredentials(username: "alice", password: .variable("password"))
            let session = try TestEngine.session(server.url("/basic"), redirectURI: "com.example:/cb")
            let callback = try await Self.signIn(session, credentials: credentials, variables: ["password": .environment("SITE_PASSWORD")])
            #expect(callback["reached"] == "basic")
            let literal = try TestEngine.session(server.url("/basic"), redirectURI: "com.example:/cb")
            await #expect(throws: WebAuthenticationError.httpAuthenticationFailed(host: "127.0.0.1", realm: "Basic area")) {
                try await Self.signIn(literal, credentials: credentials, variables: ["password": .literal("s3cret-pw")])
            }
        }

        @Test("with no login script, a window, and a kiosk that allows it, show WebKit's credentials dialog: typed into by a person, it lets the page in",
              arguments: ["window", "kiosk"])
        func dialogForAPerson(presentation: String) async throws {
            let server = try await PythonFixtureServer(script: "http_auth_server")
            var options = TestEngine.options(presentation == "window" ? .window() : .kiosk())
            options.allowsHTTPAuthentication = true
            let session = try TestEngine.session(server.url("/basic"), redirectURI: "com.example:/cb", options: options)
            let recorder = EventRecorder(session)
            let signIn = Task { try await session.start() }
            defer { signIn.cancel() }
            let asked = await recorder.first { if case .httpAuthenticationDialogShown = $0 { true } else { false } }
            #expect(asked == .httpAuthenticationDialogShown(host: "127.0.0.1", realm: "Basic area"))
            // WebKit shows its dialog after the event; a person types once the cursor is in its user name field.
            let focused = await FrameWait.until(of: { session.page?.window }) {
                guard let window = session.page?.window, let focus = gtk_window_get_focus(cwk_window(window)) else { return false }
                return KioskPictures.typeName(of: focus) == "GtkEntry"
            }
            #expect(focused, "the dialog's user name field took the keyboard focus")
            let window = try await XInput.window(of: session)
            try await XInput.type("alice", window: window)
            try await XInput.key("Tab", window: window)
            try await XInput.type("s3cret-pw", window: window)
            try await XInput.key("Return", window: window)
            #expect(try await signIn.value["reached"] == "basic")
            #expect(await session.navigationLog.contains { $0.kind == .httpAuthenticationDialog && $0.value == "127.0.0.1" })
        }

        @Test("a kiosk refuses HTTP authentication unless its options allow it")
        func kioskRefuses() async throws {
            let server = try await PythonFixtureServer(script: "http_auth_server")
            let session = try TestEngine.session(server.url("/basic"), redirectURI: "com.example:/cb", options: TestEngine.options(.kiosk()))
            await #expect(throws: WebAuthenticationError.httpAuthenticationRefused(host: "127.0.0.1", realm: "Basic area")) {
                try await session.start()
            }
        }
    }
}
