import Foundation
import Logging
import OpenIDConnect

/// A sign-in in the person's own browser (RFC 8252 §7.3): a listener on 127.0.0.1 at a free
/// port receives the redirect on the exact path, answers with a small "you can close this tab"
/// page, and hands back the callback. For providers that refuse embedded views
/// (``WebAuthenticationError/embeddedViewRefused(url:host:)``).
///
/// Any local program can send requests to the port, and so can web pages in the browser. Only
/// the request that carries the authorization URL's `state` is taken; any other (or one that
/// names another host, as a DNS-rebinding page does) is answered `400` and the wait goes on.
///
/// ```swift
/// let browser = try await SystemBrowserSession(path: "/callback")
/// let url = makeAuthorizationURL(redirectURI: await browser.redirectURI)   // the port is known now
/// let callback = try await browser.start(url: url)
/// ```
/// ``OpenIDConnectClient/signInWithSystemBrowser(scopes:additionalParameters:redirectPath:browser:timeout:)``
/// does all of it.
@WebKitActor
public final class SystemBrowserSession {
    /// `http://127.0.0.1:PORT/path`: register `http://127.0.0.1/path` with the provider (any port, RFC 8252 §7.3).
    public let redirectURI: RedirectURI
    private var listener: LoopbackRedirectListener?
    private let logger = Logger(label: "WebAuthSession")
    private let lifecycle = SessionLifecycle<RedirectCallback>()
    /// The rules of the answer, once ``start(url:browser:timeout:)`` knows the `state` it must carry.
    private var flow: SignInFlow?

    /// The page the browser shows once the redirect has arrived.
    static let closeTabPage = """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Signed in</title></head>
        <body style="font: 16px system-ui, sans-serif; margin: 4rem auto; max-width: 28rem; text-align: center">
        <h1>You can close this tab</h1><p>The application has received the answer and continues on its own.</p></body></html>
        """

    /// Starts listening on 127.0.0.1, at a free port, for `path` only.
    /// - Throws: ``WebAuthenticationError/loopbackListenerUnavailable(port:message:)``, ``WebAuthenticationError/invalidOption(_:)-swift.enum.case``.
    public init(path: String = "/callback") throws(WebAuthenticationError) {
        guard path.hasPrefix("/") else { throw .invalidOption(.redirectPathNotAbsolute(path: path)) }
        var received: (@WebKitActor (LoopbackRedirectListener.Request) -> Bool)?
        let listener = try LoopbackRedirectListener(host: "127.0.0.1", port: 0, path: path, methods: ["GET", "POST"],
                                                    reply: .page(Self.closeTabPage)) { request in received?(request) ?? false }
        do { redirectURI = try RedirectURI("http://127.0.0.1:\(listener.port)\(path)") } catch {
            throw .invalidOption(.redirectPathUnusable(path: path, error: error))
        }
        self.listener = listener
        received = { [weak self] request in self?.receive(request) ?? false }
    }

    /// Opens `url` with `browser` and waits for the redirect that carries `url`'s `state`.
    /// - Throws: ``WebAuthenticationError``: `.timedOut`, `.cancelled` (the task, or ``cancel()``),
    ///   `.browserUnavailable`, `.alreadyStarted`, `.invalidOption` (`url` has no `state`).
    public func start(url: URL, browser: SystemBrowser = .desktopDefault,
                      timeout: Duration = .seconds(300)) async throws(WebAuthenticationError) -> RedirectCallback {
        if !lifecycle.hasEnded, flow == nil {
            guard let state = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first(where: { $0.name == "state" })?.value,
                  !state.isEmpty else {
                throw .invalidOption(.authorizationURLWithoutState)
            }
            flow = SignInFlow(policy: NavigationPolicy(redirectURI: redirectURI), expectedState: state)
        }
        return try await lifecycle.run(
            timeout: timeout,
            timeoutError: { .timedOut(after: timeout, lastURL: URLRedaction.redactingValues(url.absoluteString)) },
            ending: .init(stop: { [weak self] _ in self?.listener = nil }),  // the "close this tab" answer in flight is still sent
            start: {
                Task {
                    do throws(WebAuthenticationError) { try await browser.open(url) } catch { self.lifecycle.finish(.failure(error)) }
                }
            })
    }

    /// Stops waiting (``WebAuthenticationError/cancelled``) and closes the listener.
    public nonisolated func cancel() {
        lifecycle.cancel()
    }

    /// Takes the request if it is the answer to the request started; returns whether it was.
    /// One that cannot be read (a duplicate `state`, broken encoding) cannot be shown to be it.
    private func receive(_ request: LoopbackRedirectListener.Request) -> Bool {
        let reaction = lifecycle.isRunning ? flow?.handle(.redirectReceived(url: request.url, formBody: request.body)) : nil
        guard let reaction, reaction.policy == .use, let outcome = reaction.outcome else {
            logger.warning("the loopback listener refused a request that does not carry the sign-in's state")
            return false
        }
        lifecycle.finish(outcome)
        return true
    }
}
