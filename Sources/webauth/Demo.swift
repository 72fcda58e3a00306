import ArgumentParser
import DevProvider
import Foundation
import Logging
import OpenIDConnect
import WebAuthSession

/// `webauth demo`: a complete sign-in against a login page served in-process.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in to a demo login page served by this process, through the real engine.",
        discussion: """
            Starts a login page on 127.0.0.1, opens it in the embedded WebKitGTK view \
            (headless, on a private Xvfb when there is no display), fills in the demo account \
            (first with a wrong password, to show the error page), catches the redirect to \
            com.example.webauth:/callback before it reaches the network and prints the result \
            as JSON on stdout. Progress and timings go to stderr.
            """)

    @Flag(help: "Show the sign-in window and let a person type (needs a display).")
    var interactive = false

    @Option(help: "Seconds to wait for the sign-in.")
    var timeout: Int = 120

    @Flag(help: "Log the engine's navigation decisions (values redacted).")
    var verbose = false

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .warning
            return handler
        }
        let narrator = Narrator()
        let site = try await DemoLoginSite.start()
        narrator.say("login page at \(site.authorizationEndpoint.absoluteString)")
        let redirectURI = try RedirectURI("com.example.webauth:/callback")
        let state = UUID().uuidString
        var components = URLComponents(url: site.authorizationEndpoint, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = FormURLEncoding.encode([
            ("response_type", "code"), ("client_id", "webauth-demo"), ("redirect_uri", redirectURI.string), ("state", state),
        ])
        var options = SessionOptions()
        options.presentation = interactive ? .window() : .headless
        options.timeout = .seconds(timeout)
        let session = WebAuthenticationSession(url: components.url!, redirectURI: redirectURI, options: options)
        let progress = Task { for await event in session.events { narrator.report(event) } }
        let script = interactive ? nil : Task { try await Self.fillLoginForm(session, narrator: narrator) }

        let callback: RedirectCallback
        do {
            callback = try await session.start()
        } catch {
            script?.cancel()
            throw DemoError.signInFailed(error)
        }
        try await script?.value
        await progress.value
        await site.stop()
        guard callback["state"] == state else { throw DemoError.stateMismatch }
        narrator.say("redirect captured: \(callback)")
        try Self.printJSON(callback, redirectURI: redirectURI, elapsed: narrator.elapsed)
    }

    /// What a login script does: wrong password first (the page shows an error), then the right one.
    private static func fillLoginForm(_ session: WebAuthenticationSession, narrator: Narrator) async throws {
        for password in ["not-the-password", DemoLoginSite.password] {
            try await session.waitForElement("#password")
            narrator.say(password == DemoLoginSite.password ? "typing the demo password" : "typing a wrong password first")
            try await session.evaluateJavaScript("""
                document.getElementById('username').value = \(JSONValue.string(DemoLoginSite.username));
                document.getElementById('password').value = \(JSONValue.string(password));
                document.getElementById('sign-in').click();
                """)
            if password != DemoLoginSite.password {
                try await session.waitForElement("#error")
                let message = try await session.evaluateJavaScript("document.getElementById('error').textContent")
                narrator.say("the page says: \(message.stringValue ?? "")")
            }
        }
    }

    private static func printJSON(_ callback: RedirectCallback, redirectURI: RedirectURI, elapsed: Duration) throws {
        let result: JSONValue = .object([
            "redirect_uri": .string(redirectURI.string),
            "state_matches": .bool(true),
            "code_length": .number(Double(callback["code"]?.count ?? 0)),
            "parameters": .array(callback.parameters.keys.sorted().map { .string($0) }),
            "seconds": .number(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18),
        ])
        print(result.description)
    }
}

/// Why the demo failed; ArgumentParser prints it as one line and exits with status 1.
enum DemoError: Error, CustomStringConvertible {
    case signInFailed(WebAuthSessionError)
    case stateMismatch

    var description: String {
        switch self {
        case .signInFailed(let error): "sign-in failed: \(error)"
        case .stateMismatch: "sign-in failed: the returned state is not the one sent"
        }
    }
}

/// Progress lines with timings on stderr.
final class Narrator: Sendable {
    private let start = ContinuousClock.now

    /// Time since the command started.
    var elapsed: Duration { ContinuousClock.now - start }

    func say(_ message: String) {
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        FileHandle.standardError.write(Data(String(format: "[%6d ms] %@\n", milliseconds, message).utf8))
    }

    func report(_ event: WebAuthenticationEvent) {
        switch event {
        case .loadCommitted(let url, let host, _): say("page from \(host): \(URLRedaction.redactingValues(url))")
        case .titleChanged(let title) where !title.isEmpty: say("title: \(title)")
        case .navigation(let decision) where decision.verdict != .allowed: say("navigation \(decision)")
        default: break
        }
    }
}
