import Foundation
import Logging
import OpenIDConnect
import SecretGate
import WebAuthn

/// Shows a sign-in page in an embedded WebKitGTK view and returns the redirect to the
/// application's redirect URI, caught before it reaches the network.
///
/// ```swift
/// let session = WebAuthenticationSession(
///     url: authorizationURL,
///     redirectURI: try RedirectURI("com.example.app:/oauth2redirect"))
/// let callback = try await session.start()
/// let code = callback["code"]
/// ```
///
/// A session runs once. Cancelling the calling task, calling ``cancel()``, the timeout, the
/// person closing the window and every failure all close the window and free the view before
/// ``start()`` returns. ``events`` reports progress while it runs; the page-scripting methods
/// (``evaluateJavaScript(_:timeout:)``, ``waitForElement(_:timeout:)``, ``waitForURL(timeout:where:)``)
/// drive the page from another task.
@WebKitActor
public final class WebAuthenticationSession {
    /// The page that is loaded first (the authorization request).
    public nonisolated let url: URL
    /// The redirect URI whose navigation ends the session.
    public nonisolated let redirectURI: RedirectURI
    /// How the session is shown and what it keeps.
    public nonisolated let options: WebAuthenticationOptions
    /// Progress of the session; it finishes when the session ends.
    public nonisolated let events: AsyncStream<WebAuthenticationEvent>

    private nonisolated let eventSink: AsyncStream<WebAuthenticationEvent>.Continuation
    private let logger = Logger(label: "WebAuthSession")
    private let lifecycle = SessionLifecycle<RedirectCallback>()
    private(set) var page: SignInPage?
    private var pageWaiters: [@WebKitActor () -> Void] = []
    /// A settle watch asked for before ``start()`` made the page (a script with no steps can ask
    /// that early); the page takes it when it is made.
    var settleWatchBeforePage: Duration?
    /// The login script's answer to HTTP authentication, given before ``start()`` made the page
    /// (`.some(nil)`: the script has none); the page takes it when it is made.
    private var httpCredentialBeforePage: HTTPCredential??
    /// The login script's virtual authenticator and gate, given before ``start()`` made the page.
    private var passkeysBeforePage: (authenticator: VirtualAuthenticator, gate: SecretGate)?
    private var startedAt = ContinuousClock.now
    /// What happened so far: page loads, titles, and every navigation decision (load progress
    /// left out). Kept after the session ends, for a harness's artefacts or a trace.
    public private(set) var navigationLog: [NavigationLogEntry] = []
    /// The page as it was when the session timed out, settled or met the provider's error page
    /// (screenshot, redacted URL, title, text, navigation log), taken before its window closed:
    /// a harness's artefacts. Nil after any other ending.
    public private(set) var failureSnapshot: FailureReport?

    /// Prepares a session; nothing is shown until ``start()``.
    /// - Parameters:
    ///   - url: the `http`/`https` page to load first.
    ///   - redirectURI: the redirect URI to catch (matched exactly).
    ///   - options: presentation, timeout, website data and more; every default is the safe one.
    public nonisolated init(url: URL, redirectURI: RedirectURI, options: WebAuthenticationOptions = WebAuthenticationOptions()) {
        self.url = url
        self.redirectURI = redirectURI
        self.options = options
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(512))
    }

    /// Shows the page and waits for the redirect.
    /// - Returns: the callback: the redirect URL and its parameters.
    /// - Throws: ``WebAuthenticationError``; a cancelled task throws ``WebAuthenticationError/cancelled``.
    public func start() async throws(WebAuthenticationError) -> RedirectCallback {
        let ending = SessionLifecycle<RedirectCallback>.Ending(
            stop: { [weak self] outcome in self?.stop(outcome) },
            cleanUp: { [weak self] outcome in await self?.cleanUp(outcome) })
        return try await lifecycle.run(
            timeout: options.timeout,
            timeoutError: { [weak self, options] in .timedOut(after: options.timeout, lastURL: self?.page?.redactedCurrentURL) },
            ending: ending,
            start: begin)
    }

    /// Ends the session with ``WebAuthenticationError/cancelled`` and closes its window. Safe to
    /// call from anywhere, at any time; does nothing once the session has ended (and makes
    /// ``start()`` throw it if it has not started).
    public nonisolated func cancel() {
        lifecycle.cancel()
    }

    private func begin() {
        startedAt = .now
        Presentations.register()
        do {
            page = try SignInPage(
                startURL: url, policy: NavigationPolicy(redirectURI: redirectURI, allowedHosts: allowedHosts), options: options, logger: logger,
                onEvent: { [weak self, eventSink] event in
                    self?.log(event)
                    eventSink.yield(event)
                },
                onOutcome: { [weak self] outcome in self?.lifecycle.finish(outcome) })
            if let quiet = settleWatchBeforePage { page?.failWhenSettled(after: quiet) }
            if let credential = httpCredentialBeforePage { page?.answerHTTPAuthentication(with: credential) }
            if let passkeys = passkeysBeforePage { page?.usePasskeys(passkeys.authenticator, gate: passkeys.gate) }
        } catch {
            lifecycle.finish(.failure(error))
        }
        notifyPageWaiters()
    }

    /// Answers the page's requests for HTTP authentication with a login script's `credential`
    /// (nil: the script has none, and a headless page that asks fails).
    func answerHTTPAuthentication(with credential: HTTPCredential?) {
        httpCredentialBeforePage = .some(credential)
        page?.answerHTTPAuthentication(with: credential)
    }

    /// Answers the page's WebAuthn requests with a login script's virtual authenticator as
    /// `settings` describe it, for the provider's host and `secretHosts` only; a credentials file
    /// that cannot be used ends the session with ``WebAuthenticationError/passkeyCredentialsUnusable(_:)``.
    /// Scripts run one after another with the same settings share one authenticator (its
    /// in-memory credentials too).
    func usePasskeys(_ settings: VirtualAuthenticatorSettings, secretHosts: Set<String>) {
        let authenticator: VirtualAuthenticator
        if let current = passkeysBeforePage?.authenticator, current.settings == settings {
            authenticator = current
        } else {
            do { authenticator = try VirtualAuthenticator(settings: settings) } catch {
                return lifecycle.finish(.failure(.passkeyCredentialsUnusable(error)))
            }
        }
        let gate = SecretGate(providerURL: url, secretHosts: secretHosts.union(options.secretHosts), drivenByLoginScript: true)
        passkeysBeforePage = (authenticator, gate)
        page?.usePasskeys(authenticator, gate: gate)
    }

    /// The outcome is known: the page is told (so it stops reacting) and script waits end.
    private func stop(_ outcome: SignInPage.Outcome) {
        if case .failure(let error) = outcome { page?.fail(error) }
        notifyPageWaiters()
    }

    /// Before the caller resumes, on the next loop iteration (outside any WebKit signal emission):
    /// a timeout, a settled page and a provider's error page are first kept in
    /// ``failureSnapshot``, then the window is destroyed and the events finish.
    private func cleanUp(_ outcome: SignInPage.Outcome) async {
        if case .failure(let error) = outcome, Self.keepsSnapshot(error), let page {
            failureSnapshot = await page.failureReport(reason: "\(error)", navigationLog: navigationLog, timeout: FailureReport.readingTime)
        }
        page?.close()
        page = nil
        eventSink.finish()
    }

    /// Whether `error` ends a session whose page is worth keeping: it was still showing
    /// something a person fixing the sign-in needs to see.
    private static func keepsSnapshot(_ error: WebAuthenticationError) -> Bool {
        switch error {
        case .timedOut, .pageSettled, .providerErrorPage, .passkeyRequested: true
        default: false
        }
    }

    /// The page, once ``start()`` has created it and its first document is committed; waits
    /// for that until `deadline` (nil: until the session ends, at the latest at its own timeout).
    func runningPage(before deadline: ContinuousClock.Instant?, timeout: Duration,
                     waitingFor condition: String) async throws(PageScriptError) -> SignInPage {
        while true {
            if lifecycle.hasEnded { throw .sessionEnded }
            if let page, !page.hasEnded, page.hasCommittedLoad { return page }
            let arrived: Bool = await withCheckedContinuation { continuation in
                let once = OneShot(continuation)
                if let deadline { once.resume(false, at: deadline) }
                if let page {
                    page.onNextPageChange { once.resume(true) }
                } else {
                    pageWaiters.append { once.resume(true) }
                }
            }
            if !arrived { throw .timedOut(waitingFor: condition, after: timeout, url: nil) }
        }
    }

    /// The running page, and the deadline of an operation on it given `timeout`, counted from the
    /// page's first document, which this waits for as long as the session lasts: starting the web
    /// process and the display (seconds, on a busy machine) is not the page's doing, so no script
    /// step or page wait is charged for it.
    /// - Throws: ``PageScriptError/sessionEnded`` if the session ends first.
    func pageAndDeadline(after timeout: Duration) async throws(PageScriptError) -> (page: SignInPage, deadline: ContinuousClock.Instant) {
        let page = try await runningPage(before: nil, timeout: timeout, waitingFor: "the page")
        return (page, .now + timeout)
    }

    /// A kiosk's allowlist: the start page's host and the ones the options add.
    private var allowedHosts: Set<String>? {
        guard let extra = options.presentation.kioskSettings?.allowedHosts else { return nil }
        return Set(extra + [url.host].compactMap { $0 })
    }

    private func log(_ event: WebAuthenticationEvent) {
        let elapsed = ContinuousClock.now - startedAt
        let milliseconds = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        if let entry = NavigationLogEntry(event, milliseconds: milliseconds) { navigationLog.append(entry) }
    }

    private func notifyPageWaiters() {
        let waiters = pageWaiters
        pageWaiters = []
        for waiter in waiters { waiter() }
    }
}
