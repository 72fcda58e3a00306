import OpenIDConnect
import OpenIDSignIn
import Synchronization

/// The embedded WebKit engine as an `AuthorizationUserAgent`: each presentation is a
/// ``WebAuthenticationSession`` shown as `options` say (a popup, a kiosk, headless), with
/// `script` (a login script for tests and harnesses) running beside the page.
///
/// ```swift
/// let client = OpenIDClient(issuer: "https://id.example.com", clientID: "my-app",
///                           redirectURI: try RedirectURI("com.example.app:/oauth2redirect"))
/// let result = try await client.signIn(using: WebAuthenticationUserAgent(options: WebAuthenticationOptions()))
/// ```
/// ``OpenIDConnectClient`` signs in through it. Its errors come out as
/// `AuthorizationUserAgentError.cancelled`, `AuthorizationUserAgentError.timedOut(after:lastURL:)`,
/// or `AuthorizationUserAgentError.agent(_:)` with the session's ``WebAuthenticationError`` or
/// the script's ``SignInScriptError``.
public struct WebAuthenticationUserAgent: AuthorizationUserAgent {
    /// How the page is shown; its ``WebAuthenticationOptions/languages`` go out as `ui_locales`,
    /// its ``WebAuthenticationOptions/timeout`` limits each presentation.
    public let options: WebAuthenticationOptions
    /// Runs beside the page while it waits; one that throws cancels the page, and the
    /// presentation fails with its error.
    public let script: (@Sendable (WebAuthenticationSession) async throws -> Void)?

    /// The engine with `options`, and `script` beside each page.
    public init(options: WebAuthenticationOptions = WebAuthenticationOptions(),
                script: (@Sendable (WebAuthenticationSession) async throws -> Void)? = nil) {
        self.options = options
        self.script = script
    }

    /// ``options``' languages.
    public var languages: [String] { options.languages }

    /// Shows the page and returns the first redirect to the presentation's redirect URI (the
    /// client checks its `state`).
    public func present(_ presentation: AuthorizationPresentation) async throws(AuthorizationUserAgentError) -> RedirectCallback {
        let session = WebAuthenticationSession(url: presentation.url, redirectURI: presentation.redirectURI, options: options)
        let scriptFailure = ScriptFailure()
        let scriptTask = script.map { script in
            Task {
                do { try await script(session) } catch {
                    scriptFailure.failure.withLock { $0 = SignInScriptError(error) }
                    session.cancel()
                }
            }
        }
        defer { scriptTask?.cancel() }
        do {
            return try await session.start()
        } catch {
            if error == .cancelled, let failure = scriptFailure.failure.withLock({ $0 }) { throw .agent(failure) }
            switch error {
            case .cancelled: throw .cancelled
            case .timedOut(let after, let lastURL): throw .timedOut(after: after, lastURL: lastURL)
            default: throw .agent(error)
            }
        }
    }

    /// Deletes the persistent profile's cookies and storage; an ephemeral session keeps none.
    public func clearWebsiteData() async throws(AuthorizationUserAgentError) {
        guard case .persistent(let directory) = options.websiteData else { return }
        do { try await WebAuthEngine.clearWebsiteData(profileDirectory: directory) } catch { throw .agent(error) }
    }
}

/// The error of a login script that failed, recorded before it cancels the session.
private final class ScriptFailure: Sendable {
    let failure = Mutex<SignInScriptError?>(nil)
}
