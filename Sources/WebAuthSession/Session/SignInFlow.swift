import Foundation
import OpenIDConnect

/// The rules of one sign-in, apart from any window, web view or listener: events in (what the
/// page, the person, the clock or the loopback listener did), a ``Reaction`` out (let WebKit go
/// on or not, what to report, what to look at next, and how the sign-in ends). It ends once:
/// after its outcome every navigation is ignored and no other outcome comes out.
///
/// Where the sign-in is, is one ``State``, with what that state holds, so that no impossible
/// combination (an outcome and a redirect still awaited, an error status before any page) can be
/// written down; its clocks are its ``SignInDeadlines``. ``SignInPage`` feeds it WebKit's signals.
/// Nothing here waits or touches WebKit: the tests drive it with plain values.
struct SignInFlow: Sendable {
    typealias Outcome = Result<RedirectCallback, WebAuthenticationError>

    /// The states a sign-in goes through: it starts ``loadingStartPage``, shows the provider's
    /// pages, may let the redirect through to be received with its form body, and ends once.
    enum State: Sendable, Equatable {
        /// Nothing committed yet: the start page (and its redirects) are loading.
        case loadingStartPage
        /// The start page was committed with this HTTP error status (4xx, 5xx): once it has
        /// loaded, it is read (``FollowUp/readErrorPage(status:)``) and the sign-in fails.
        case startPageFailed(status: Int)
        /// A document is shown: the provider's pages, which a person or a script goes through.
        case showingPages
        /// A page's form submitted the redirect, let through so that its body can be read where
        /// it arrives; any other request there is a page resource, never the redirect.
        case receivingRedirect(RedirectDelivery)
        /// The sign-in is over, with its outcome; `committed`: a document had been shown (a
        /// failure report then reads the page).
        case ended(Outcome, committed: Bool)
    }

    /// Where a redirect let through arrives, with its form body.
    enum RedirectDelivery: Sendable, Equatable {
        /// At the engine's handler of the custom redirect scheme, as a request for `url`.
        case schemeHandler(url: String)
        /// At the loopback listener, as a form POST to `url`.
        case loopbackListener(url: String)
    }

    /// What happened.
    enum Event: Sendable {
        /// WebKit asks whether a navigation may go on (`decide-policy`, or `create` for a new window).
        case navigationRequested(NavigationRequest)
        /// WebKit asks whether a response may be shown.
        case responseReceived(NavigationResponse)
        /// WebKit started a download of `url` by itself (a `download` link); it was cancelled.
        case downloadStarted(url: String)
        /// A request reached the engine's handler of the custom redirect scheme.
        case schemeRequested(url: String)
        /// The redirect arrived with its form body, if any: a scheme request the flow accepted and
        /// whose body was read, or a request to the system browser's loopback listener.
        case redirectReceived(url: String, formBody: String?)
        /// The loopback listener received the form POST the flow had it listen for.
        case formPostReceived(body: String?)
        /// A document was committed; `errorStatus` is its HTTP status if 4xx or 5xx.
        case loadCommitted(errorStatus: Int?)
        /// The page finished loading.
        case loadFinished
        /// The embedded-view check of a finished page found none of the refusal markers.
        case embeddedViewAccepted
        /// A main-frame load started, or was redirected, to `url`.
        case loadStarted(url: String)
        /// A main-frame load failed.
        case loadFailed(LoadFailure)
        /// The page loads its URL again (the CA file vouched for its certificate): the first
        /// load's request is cancelled, and WebKit may report that failure after the new load began.
        case loadSuperseded
        /// A page's certificate is not valid.
        case tlsFailed(url: String, errors: TLSErrors)
        /// The web process ended.
        case webProcessTerminated(WebProcessTerminationReason)
        /// The person closed the window: its close button, Escape, Cancel, or the page's `window.close()`.
        case windowClosed
        /// GTK destroyed the window (the host application destroyed it or its parent).
        case windowDestroyed
        /// The page showed a load, a navigation or a title (the settle timer starts again).
        case activity(at: ContinuousClock.Instant)
        /// A person used the page (the idle timer starts again).
        case input(at: ContinuousClock.Instant)
        /// The idle deadline passed (``idleDeadline``); `at` is now.
        case idleCheck(at: ContinuousClock.Instant)
        /// The settle deadline passed (``settleDeadline``); `at` is now.
        case settleCheck(at: ContinuousClock.Instant, isLoading: Bool)
        /// The page read after a ``FollowUp/readSettledPage(activitySeen:)``.
        case settledPageRead(PageSummary, activitySeen: ContinuousClock.Instant)
        /// The sign-in ends with `error`: cancelled, timed out, shut down, or something the page
        /// found out (an embedded-view refusal, the provider's error page, a port it could not bind).
        case failed(WebAuthenticationError)
    }

    /// Whether WebKit may go on with what it asked about (or the listener take its request).
    enum Policy: Sendable, Hashable {
        case use, ignore
    }

    /// What the page has to do next, with WebKit or the network, and report back as an event.
    enum FollowUp: Sendable, Hashable {
        /// Listen on the loopback `port` for the form POST (``Event/formPostReceived(body:)``);
        /// report ``Event/failed(_:)`` and ignore the navigation if that is impossible.
        case listenForFormPost(port: Int)
        /// Read the scheme request's body and report ``Event/redirectReceived(url:formBody:)``.
        case readSchemeRequest
        /// Look for `markers` in the page: ``Event/failed(_:)`` with
        /// ``WebAuthenticationError/embeddedViewRefused(url:host:)``, else ``Event/embeddedViewAccepted``.
        case checkEmbeddedViewRefusal([String])
        /// The start page was the provider's error page: read it and report ``Event/failed(_:)``
        /// with ``WebAuthenticationError/providerErrorPage(status:_:)``.
        case readErrorPage(status: Int)
        /// The page is still loading: wait for the next page change, then check again.
        case waitForPageChange
        /// The page has settled: read its summary and report ``Event/settledPageRead(_:activitySeen:)``.
        case readSettledPage(activitySeen: ContinuousClock.Instant)
    }

    /// What an event leads to; every part is optional.
    struct Reaction: Sendable, Hashable {
        /// For a question WebKit or the listener asked: whether it may go on.
        var policy: Policy?
        /// A navigation decision to log and report (its URL redacted).
        var decision: NavigationDecision?
        /// What the page has to do next.
        var followUp: FollowUp?
        /// The sign-in ends now, with this.
        var outcome: Outcome?
    }

    let policy: NavigationPolicy
    private let refusalMarkers: [String]
    /// Where the sign-in is.
    private(set) var state = State.loadingStartPage
    private var deadlines: SignInDeadlines
    /// Whether a document committed since the last finished load: a load that failed before
    /// committing (a certificate the CA file then vouched for) leaves no new page to read.
    private var committedSinceLastFinish = false
    /// Loads the page replaced (``Event/loadSuperseded``) whose cancelled request has not been
    /// reported yet: each accounts for one ``LoadFailure/Cause/requestCancelled`` failure.
    private var supersededLoads = 0
    /// Where the main-frame load under way started or was last redirected to: a cancelled request
    /// for any other address is a load the page has already left.
    private var currentLoad: String?

    /// A flow for `policy`'s redirect URI. `refusalMarkers`: text that shows the provider refuses
    /// embedded views; `idleLimit`: a kiosk's time without input before it is abandoned.
    init(policy: NavigationPolicy, refusalMarkers: [String] = [], idleLimit: Duration? = nil,
         now: ContinuousClock.Instant = .now) {
        self.policy = policy
        self.refusalMarkers = refusalMarkers
        deadlines = SignInDeadlines(idleLimit: idleLimit, now: now)
    }

    /// How it ended, once it has.
    var outcome: Outcome? {
        guard case .ended(let outcome, _) = state else { return nil }
        return outcome
    }

    /// Whether the outcome is known.
    var hasEnded: Bool { outcome != nil }

    /// Whether a document has been committed (scripts then run in a real page, not about:blank).
    var hasCommittedLoad: Bool {
        switch state {
        case .loadingStartPage: false
        case .startPageFailed, .showingPages, .receivingRedirect: true
        case .ended(_, let committed): committed
        }
    }

    /// When a kiosk page is abandoned unless someone uses it; `nil` when there is no idle limit.
    var idleDeadline: ContinuousClock.Instant? { hasEnded ? nil : deadlines.idleDeadline }

    /// When the page counts as settled unless it does something; `nil` when not watched.
    var settleDeadline: ContinuousClock.Instant? { hasEnded ? nil : deadlines.settleDeadline }

    /// When the page last showed a load, a navigation or a title.
    var lastActivity: ContinuousClock.Instant { deadlines.lastActivity }

    /// Ends the sign-in with ``WebAuthenticationError/pageSettled(_:after:)`` once the page has gone
    /// `quiet` with no activity and is not loading (a login script's last step has run). Calling it
    /// again restarts the watch with the new `quiet`.
    mutating func failWhenSettled(after quiet: Duration, now: ContinuousClock.Instant = .now) {
        deadlines.watchSettling(quiet: quiet, from: now)
    }

    /// Whether a failed load is none of the sign-in's business: the engine's policy stopped it,
    /// or its request was cancelled because the page went on to another load (another address, or
    /// the same page loaded again); any other failure ends the sign-in.
    func ignores(_ failure: LoadFailure) -> Bool {
        switch failure.cause {
        case .stoppedByPolicy: true
        case .requestCancelled: supersededLoads > 0 || isLeftBehind(failure)
        case .failed: false
        }
    }

    /// Whether `failure` is of a load the page went on from to another address.
    private func isLeftBehind(_ failure: LoadFailure) -> Bool {
        currentLoad != nil && failure.url != currentLoad
    }

    /// Applies `event`.
    mutating func handle(_ event: Event) -> Reaction {
        switch event {
        case .activity(let now):
            deadlines.activity(at: now)
            return Reaction()
        case .input(let now):
            deadlines.inputArrived(at: now)
            return Reaction()
        default:
            break
        }
        guard !hasEnded else { return Reaction(policy: .ignore) }
        switch event {
        case .navigationRequested(let request):
            return navigate(request)
        case .responseReceived(let response):
            guard response.wouldDownload else { return Reaction(policy: .use) }
            return Reaction(policy: .ignore, decision: refusal(of: response.url, .download))
        case .downloadStarted(let url):
            return Reaction(decision: refusal(of: url, .download))
        case .schemeRequested(let url):
            guard state == .receivingRedirect(.schemeHandler(url: url)) else {
                return Reaction(policy: .ignore, decision: refusal(of: url, .redirectSubresource))
            }
            state = .showingPages  // its body is read now, and ends the sign-in
            return Reaction(policy: .use, followUp: .readSchemeRequest)
        case .redirectReceived(let url, let formBody):
            return capture(url: url, formBody: formBody)
        case .formPostReceived(let body):
            guard case .receivingRedirect(.loopbackListener(let url)) = state else { return Reaction(policy: .ignore) }
            return capture(url: url, formBody: body)
        case .loadCommitted(let errorStatus):
            committedSinceLastFinish = true
            if state == .loadingStartPage { state = errorStatus.map { State.startPageFailed(status: $0) } ?? .showingPages }
            return Reaction()
        case .loadFinished:
            defer { committedSinceLastFinish = false }
            if !refusalMarkers.isEmpty && committedSinceLastFinish { return Reaction(followUp: .checkEmbeddedViewRefusal(refusalMarkers)) }
            return errorPageCheck()
        case .embeddedViewAccepted:
            return errorPageCheck()
        case .loadStarted(let url):
            currentLoad = url
            return Reaction()
        case .loadSuperseded:
            supersededLoads += 1
            return Reaction()
        case .loadFailed(let failure):
            if failure.cause == .requestCancelled, !isLeftBehind(failure), supersededLoads > 0 {
                supersededLoads -= 1  // the page loaded again: the replaced load's cancellation, accounted for
                return Reaction()
            }
            guard !ignores(failure) else { return Reaction() }
            return end(.failure(.loadFailed(url: URLRedaction.redactingValues(failure.url), domain: failure.domain,
                                            code: failure.code, message: failure.message)))
        case .tlsFailed(let url, let errors):
            return end(.failure(.tlsFailure(url: URLRedaction.redactingValues(url), host: URLComponents(string: url)?.host ?? "",
                                            errors: errors)))
        case .webProcessTerminated(let reason):
            return end(.failure(.webProcessTerminated(reason)))
        case .windowClosed:
            return end(.failure(.closedByUser))
        case .windowDestroyed:
            return end(.failure(.cancelled))
        case .idleCheck(let now):
            guard let idleLimit = deadlines.idleLimit, let deadline = idleDeadline, now >= deadline else { return Reaction() }
            return end(.failure(.abandoned(after: idleLimit)))
        case .settleCheck(let now, let isLoading):
            guard let deadline = settleDeadline, now >= deadline else { return Reaction() }
            return Reaction(followUp: isLoading ? .waitForPageChange : .readSettledPage(activitySeen: lastActivity))
        case .settledPageRead(let summary, let seen):
            guard let settleQuiet = deadlines.settleQuiet, lastActivity == seen else { return Reaction() }
            return end(.failure(.pageSettled(summary, after: settleQuiet)))
        case .failed(let error):
            return end(.failure(error))
        case .activity, .input:
            return Reaction()
        }
    }

    private mutating func navigate(_ request: NavigationRequest) -> Reaction {
        let url = request.url
        switch policy.verdict(for: request) {
        case .allow:
            return Reaction(policy: .use, decision: decision(url, .allowed))
        case .capture:
            var reaction = capture(url: url, formBody: nil)
            (reaction.policy, reaction.decision) = (.ignore, decision(url, .captured))
            return reaction
        case .captureThroughSchemeHandler:
            state = .receivingRedirect(.schemeHandler(url: url))
            return Reaction(policy: .use, decision: decision(url, .captured))
        case .captureThroughLoopbackListener(let port):
            state = .receivingRedirect(.loopbackListener(url: url))
            return Reaction(policy: .use, decision: decision(url, .captured), followUp: .listenForFormPost(port: port))
        case .refuse(let reason):
            return Reaction(policy: .ignore, decision: refusal(of: url, reason))
        case .fail(let error):
            var reaction = end(.failure(error))
            (reaction.policy, reaction.decision) = (.ignore, refusal(of: url, .unreadableResponse))
            return reaction
        }
    }

    /// Turns a redirect into the outcome: the first redirect is the answer, and one that cannot
    /// be read ends the sign-in (the client checks its `state`).
    private mutating func capture(url: String, formBody: String?) -> Reaction {
        do throws(RedirectCallbackError) {
            let callback = try RedirectCallback(url: url, formBody: formBody, redirectURI: policy.redirectURI)
            return Reaction(policy: .use, outcome: end(.success(callback)).outcome)
        } catch {
            return Reaction(policy: .use, outcome: end(.failure(.invalidCallback(error))).outcome)
        }
    }

    /// After the start page loaded: its error status, if it had one, ends the sign-in (once read).
    private mutating func errorPageCheck() -> Reaction {
        guard case .startPageFailed(let status) = state else { return Reaction() }
        state = .showingPages
        return Reaction(followUp: .readErrorPage(status: status))
    }

    private mutating func end(_ outcome: Outcome) -> Reaction {
        state = .ended(outcome, committed: hasCommittedLoad)
        return Reaction(outcome: outcome)
    }

    private func decision(_ url: String, _ verdict: NavigationDecision.Verdict) -> NavigationDecision {
        NavigationDecision(url: URLRedaction.redactingValues(url), verdict: verdict)
    }

    private func refusal(of url: String, _ reason: NavigationDecision.RefusalReason) -> NavigationDecision {
        decision(url, .refused(reason))
    }
}
