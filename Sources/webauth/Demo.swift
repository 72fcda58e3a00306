import ArgumentParser
import DevProvider
import Foundation
import Logging
import OpenIDConnect
import WebAuthSession

/// `webauth demo`: a complete OpenID Connect sign-in against a provider served in-process.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in to a development OpenID provider served by this process, through the real engine.",
        discussion: """
            Starts an OpenID provider on 127.0.0.1, discovers it, opens its login page in the \
            embedded WebKitGTK view (headless, on a private Xvfb when there is no display) with \
            PKCE, state and nonce, types the demo account (a wrong password first, to show the \
            error page), catches the redirect to com.example.webauth:/callback before it reaches \
            the network, exchanges the code, validates the ID token, and prints its claims as JSON \
            on stdout. Progress and timings go to stderr; tokens are never printed.
            """)

    @Flag(help: "Show the sign-in window and let a person type (needs a display). The account is alice / wonderland.")
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
        let provider = try await OpenIDProvider.start()
        narrator.say("OpenID provider at \(provider.issuer)")
        let client = OpenIDConnectClient(issuer: provider.issuer, clientID: OpenIDProvider.Client.demo.clientID,
                                         redirectURI: try RedirectURI(OpenIDProvider.Client.demo.redirectURIs[0]))
        var options = SessionOptions()
        options.presentation = interactive ? .window() : .headless
        options.timeout = .seconds(timeout)
        let login: @Sendable (WebAuthenticationSession) async throws -> Void = { session in
            try await Demo.login(session, narrator)
        }
        let script = interactive ? nil : login
        let result: SignInResult
        do {
            result = try await client.signIn(scopes: ["openid", "profile", "offline_access"], options: options, script: script)
        } catch {
            throw DemoError.signInFailed(error)
        }
        await provider.stop()
        narrator.say("signed in: \(result)")
        print(JSONValue.object(result.idToken.claims).description)
    }

    /// What a login script does: follow the page, a wrong password first, then the right one.
    private static func login(_ session: WebAuthenticationSession, _ narrator: Narrator) async throws {
        // The event stream ends with the session, and so does this task.
        Task { for await event in session.events { narrator.report(event) } }
        let user = OpenIDProvider.User.alice
        for password in ["not-the-password", user.password] {
            try await session.waitForElement("#password")
            narrator.say(password == user.password ? "typing the demo password" : "typing a wrong password first")
            try await session.evaluateJavaScript("""
                document.getElementById('username').value = \(JSONValue.string(user.username));
                document.getElementById('password').value = \(JSONValue.string(password));
                document.getElementById('sign-in').click();
                """)
            if password != user.password {
                try await session.waitForElement("#error")
                let message = try await session.evaluateJavaScript("document.getElementById('error').textContent")
                narrator.say("the page says: \(message.stringValue ?? "")")
            }
        }
    }
}

/// Why the demo failed; ArgumentParser prints it as one line and exits with status 1.
enum DemoError: Error, CustomStringConvertible {
    case signInFailed(SignInError)

    var description: String {
        switch self {
        case .signInFailed(let error): "sign-in failed: \(error)"
        }
    }
}

/// Progress lines with timings on stderr.
final class Narrator: Sendable {
    private let start = ContinuousClock.now

    func say(_ message: String) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        FileHandle.standardError.write(Data(String(format: "[%6d ms] %@\n", milliseconds, message).utf8))
    }

    func report(_ event: WebAuthenticationEvent) {
        switch event {
        case .loadCommitted(let url, let host, _): say("page from \(host): \(URLRedaction.redactingValues(url))")
        case .navigation(let decision) where decision.verdict != .allowed: say("navigation \(decision)")
        default: break
        }
    }
}
