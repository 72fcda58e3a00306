import OpenIDConnect

/// Why an ``AuthorizationUserAgent`` brought back no redirect.
public enum AuthorizationUserAgentError: Error, Sendable, CustomStringConvertible {
    /// The task was cancelled, or the agent's owner stopped it.
    case cancelled
    /// No answer came within the agent's time limit; `lastURL` (values redacted) is where the
    /// page was, when the agent knows.
    case timedOut(after: Duration, lastURL: String?)
    /// The system browser could not be opened.
    case browserUnavailable(BrowserUnavailableReason)
    /// The loopback listener could not listen on `port` (0: any free port).
    case loopbackListenerUnavailable(port: Int, message: String)
    /// The redirect path given for a loopback redirect URI does not start with `/`.
    case redirectPathNotAbsolute(path: String)
    /// The redirect path given for a loopback redirect URI makes no valid redirect URI.
    case redirectPathUnusable(path: String, error: RedirectURIError)
    /// ``AuthorizationUserAgent/present(_:)`` was given a redirect URI that
    /// ``AuthorizationUserAgent/redirectURI(for:)`` did not make for this presentation.
    case redirectURINotPrepared
    /// The agent's own error, kept whole for its caller (WebAuthSession's engine: a page that
    /// failed, a login script that threw).
    case agent(any Error & Sendable)

    public var description: String {
        switch self {
        case .cancelled: "the sign-in was cancelled"
        case .timedOut(let after, _): "no answer came within \(after)"
        case .browserUnavailable(let reason): "the browser could not be opened: \(reason)"
        case .loopbackListenerUnavailable(let port, let message): "cannot listen on 127.0.0.1 port \(port): \(message)"
        case .redirectPathNotAbsolute: "the redirect path must start with /"
        case .redirectPathUnusable(let path, let error): "the redirect path \(path) cannot be used: \(error)"
        case .redirectURINotPrepared: "the presentation's redirect URI was not made by this user agent"
        case .agent(let error): "\(error)"
        }
    }
}
