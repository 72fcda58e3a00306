import Foundation
import Logging
import OpenIDConnect

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
    public nonisolated let options: SessionOptions
    /// Progress of the session; it finishes when the session ends.
    public nonisolated let events: AsyncStream<WebAuthenticationEvent>

    private nonisolated let eventSink: AsyncStream<WebAuthenticationEvent>.Continuation
    private let logger = Logger(label: "WebAuthSession")
    private var state = State.idle
    private(set) var page: SignInPage?
    private var pageWaiters: [@WebKitActor () -> Void] = []
    private var startedAt = ContinuousClock.now
    /// What happened so far: page loads, titles, and every navigation decision (load progress
    /// left out). Kept after the session ends, for a harness's artefacts or a trace.
    public private(set) var navigationLog: [NavigationLogEntry] = []
    /// The page as it was when the session timed out, settled or met the provider's error page
    /// (screenshot, redacted URL, title, text, navigation log), taken before its window closed:
    /// a harness's artefacts. Nil after any other ending.
    public private(set) var failureSnapshot: FailureReport?
    /// When the page last loaded, navigated or changed its title (any event).
    private(set) var lastActivity = ContinuousClock.now
    /// The task that ends the session once its page settles (``failWhenSettled(after:)``).
    var settleWatch: Task<Void, Never>?

    private enum State {
        case idle
        case running(CheckedContinuation<RedirectCallback, any Error>, timeout: Task<Void, Never>)
        case finished
    }

    /// Prepares a session; nothing is shown until ``start()``.
    /// - Parameters:
    ///   - url: the `http`/`https` page to load first.
    ///   - redirectURI: the redirect URI to catch (matched exactly).
    ///   - options: presentation, timeout, website data and more; every default is the safe one.
    public nonisolated init(url: URL, redirectURI: RedirectURI, options: SessionOptions = SessionOptions()) {
        self.url = url
        self.redirectURI = redirectURI
        self.options = options
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(512))
    }

    /// Shows the page and waits for the redirect.
    /// - Returns: the callback: the redirect URL and its parameters.
    /// - Throws: ``WebAuthSessionError``; a cancelled task throws ``WebAuthSessionError/cancelled``.
    public func start() async throws(WebAuthSessionError) -> RedirectCallback {
        guard case .idle = state else { throw .alreadyStarted }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    begin(continuation)
                }
            } onCancel: {
                Task { @WebKitActor in self.finish(.failure(.cancelled)) }
            }
        } catch let error as WebAuthSessionError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// Ends the session with ``WebAuthSessionError/cancelled`` and closes its window. Safe to
    /// call from anywhere, at any time; does nothing once the session has ended.
    public nonisolated func cancel() {
        Task { @WebKitActor in self.finish(.failure(.cancelled)) }
    }

    private func begin(_ continuation: CheckedContinuation<RedirectCallback, any Error>) {
        if Task.isCancelled {
            state = .finished
            eventSink.finish()
            return continuation.resume(throwing: WebAuthSessionError.cancelled)
        }
        let timeout = Task { [options] in
            guard (try? await Task.sleep(for: options.timeout)) != nil else { return }
            self.finish(.failure(.timedOut(after: options.timeout, lastURL: self.page?.redactedCurrentURL)))
        }
        state = .running(continuation, timeout: timeout)
        startedAt = .now
        do {
            page = try SignInPage(
                startURL: url, policy: NavigationPolicy(redirectURI: redirectURI, allowedHosts: allowedHosts), options: options, logger: logger,
                onEvent: { [weak self, eventSink] event in
                    self?.noteActivity()
                    self?.log(event)
                    eventSink.yield(event)
                },
                onOutcome: { [weak self] outcome in self?.finish(outcome) })
        } catch {
            finish(.failure(error))
        }
        notifyPageWaiters()
    }

    /// Reports the outcome once: the page is told first (so it stops reacting), then, on the
    /// next loop iteration (outside any WebKit signal emission), the window is destroyed and
    /// the caller resumed. A timeout, a settled page and a provider's error page are first
    /// kept in ``failureSnapshot``.
    func finish(_ outcome: SignInPage.Outcome) {
        guard case .running(let continuation, let timeout) = state else { return }
        state = .finished
        timeout.cancel()
        settleWatch?.cancel()
        page?.end(with: outcome)
        let page = self.page
        notifyPageWaiters()
        Task {
            if case .failure(let error) = outcome, Self.keepsSnapshot(error), let page {
                self.failureSnapshot = await page.failureReport(reason: "\(error)", navigationLog: self.navigationLog, timeout: .seconds(5))
            }
            page?.close()
            self.page = nil
            self.eventSink.finish()
            continuation.resume(with: outcome.mapError { $0 as any Error })
        }
    }

    /// Whether `error` ends a session whose page is worth keeping: it was still showing
    /// something a person fixing the sign-in needs to see.
    private static func keepsSnapshot(_ error: WebAuthSessionError) -> Bool {
        switch error {
        case .timedOut, .pageSettled, .providerErrorPage: true
        default: false
        }
    }

    /// Restarts the settle timer: the page did something.
    func noteActivity() {
        lastActivity = .now
    }

    /// The page, once ``start()`` has created it and its first document is committed; waits
    /// for that until `deadline`.
    func runningPage(before deadline: ContinuousClock.Instant, timeout: Duration,
                     waitingFor condition: String) async throws(PageScriptError) -> SignInPage {
        while true {
            if case .finished = state { throw .sessionEnded }
            if let page, !page.hasEnded, page.hasCommittedLoad { return page }
            let arrived: Bool = await withCheckedContinuation { continuation in
                let once = OneShot(continuation)
                once.resume(false, at: deadline)
                if let page {
                    page.onNextPageChange { once.resume(true) }
                } else {
                    pageWaiters.append { once.resume(true) }
                }
            }
            if !arrived { throw .timedOut(waitingFor: condition, after: timeout, url: nil) }
        }
    }

    /// A kiosk's allowlist: the start page's host and the ones the options add.
    private var allowedHosts: Set<String>? {
        guard case .kiosk(let extra, _) = options.presentation else { return nil }
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
