import Foundation
import Logging
import OpenIDConnect
import Synchronization

/// The person's own browser as the user agent (RFC 8252 §7.3), for providers that refuse
/// embedded views: a listener on 127.0.0.1 at a free port (plain sockets, no GLib or libsoup)
/// receives the redirect on the exact path, answers with a small "you can close this tab" page,
/// and hands back the callback.
///
/// Any local program can send requests to the port, and so can web pages in the browser. Only
/// the request that carries the presentation's ``AuthorizationPresentation/expectedState`` is
/// taken; any other (or one that names another host, as a DNS-rebinding page does) is answered
/// `400` and the wait goes on.
///
/// ```swift
/// let client = OpenIDClient(issuer: "https://id.example.com", clientID: "my-app",
///                           redirectURI: try RedirectURI("http://127.0.0.1/callback"))
/// let result = try await client.signIn(using: SystemBrowserUserAgent())
/// ```
/// Register `http://127.0.0.1/callback` with the provider (any port, RFC 8252 §7.3): each
/// ``redirectURI(for:)`` listens at a new free port and puts it in the redirect URI.
public struct SystemBrowserUserAgent: AuthorizationUserAgent {
    /// The path the redirect comes back to (`/callback`).
    public let redirectPath: String
    /// How the browser is opened.
    public let browser: SystemBrowser
    /// How long the person may take. Default: 5 minutes.
    public let timeout: Duration
    /// The listeners made by ``redirectURI(for:)``, by redirect URI, until presented.
    private let listeners = Listeners()
    private let logger = Logger(label: "OpenIDSignIn")

    /// The page the browser shows once the redirect has arrived.
    static let closeTabPage = """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Signed in</title></head>
        <body style="font: 16px system-ui, sans-serif; margin: 4rem auto; max-width: 28rem; text-align: center">
        <h1>You can close this tab</h1><p>The application has received the answer and continues on its own.</p></body></html>
        """

    /// The system browser, receiving the redirect at `redirectPath`.
    public init(redirectPath: String = "/callback", browser: SystemBrowser = .desktopDefault, timeout: Duration = .seconds(300)) {
        self.redirectPath = redirectPath
        self.browser = browser
        self.timeout = timeout
    }

    /// Listens on 127.0.0.1 at a free port: `http://127.0.0.1:PORT/redirectPath`, whatever
    /// `registered` says (its port, if any, is not used).
    /// - Throws: `.loopbackListenerUnavailable`, `.redirectPathNotAbsolute`, `.redirectPathUnusable`.
    public func redirectURI(for registered: RedirectURI) async throws(AuthorizationUserAgentError) -> RedirectURI {
        guard redirectPath.hasPrefix("/") else { throw .redirectPathNotAbsolute(path: redirectPath) }
        let listener = try LoopbackListener(path: redirectPath)
        let redirectURI: RedirectURI
        do { redirectURI = try RedirectURI("http://127.0.0.1:\(listener.port)\(redirectPath)") } catch {
            throw .redirectPathUnusable(path: redirectPath, error: error)
        }
        listeners.keep(listener, for: redirectURI)
        return redirectURI
    }

    /// Opens the URL with ``browser`` and waits for the redirect that carries the presentation's `state`.
    /// - Throws: `.timedOut`, `.cancelled` (the task), `.browserUnavailable`, `.redirectURINotPrepared`.
    public func present(_ presentation: AuthorizationPresentation) async throws(AuthorizationUserAgentError) -> RedirectCallback {
        guard let listener = listeners.take(presentation.redirectURI) else { throw .redirectURINotPrepared }
        let timeout = timeout
        let timer = Task {
            try await Task.sleep(for: timeout)
            listener.stop(.timedOut(after: timeout, lastURL: URLRedaction.redactingValues(presentation.url.absoluteString)))
        }
        defer { timer.cancel() }
        // Not awaited: a browser that stays open keeps its opener running, and the sign-in does not wait for it.
        let browser = browser
        Task {
            do throws(AuthorizationUserAgentError) { try await browser.open(presentation.url) } catch { listener.stop(error) }
        }
        let logger = logger
        // One that cannot be read (a duplicate `state`, broken encoding) cannot be shown to be the answer.
        return try await listener.wait(for: { request in
            let callback = try? RedirectCallback(url: request.url, formBody: request.body, redirectURI: presentation.redirectURI)
            guard let callback, callback["state"] == presentation.expectedState else {
                logger.warning("the loopback listener refused a request that does not carry the sign-in's state")
                return nil
            }
            return callback
        }, page: Self.closeTabPage)
    }
}

/// The listeners a ``SystemBrowserUserAgent`` has made and not yet presented.
private final class Listeners: Sendable {
    private let waiting = Mutex<[RedirectURI: LoopbackListener]>([:])

    func keep(_ listener: LoopbackListener, for redirectURI: RedirectURI) {
        waiting.withLock { $0[redirectURI] = listener }
    }

    func take(_ redirectURI: RedirectURI) -> LoopbackListener? {
        waiting.withLock { $0.removeValue(forKey: redirectURI) }
    }
}
