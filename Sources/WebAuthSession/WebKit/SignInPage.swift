import Foundation
import Logging
import OpenIDConnect
import WebAuthn
internal import CWebKitGTK
import SecretGate

/// One sign-in's window and web view, the GObject side of a ``SignInFlow``: it loads the start
/// page, turns WebKit's and GTK's signals into the flow's events, carries out its decisions
/// (the policy, and follow-ups that need the page or the network), reports progress, and reports
/// the outcome once. ``close()`` destroys the window and the view. When GTK destroys the window
/// first (a host application destroyed its parent), the sign-in ends as cancelled and the page
/// never touches the window or the view again.
///
/// It keeps the rules (its ``SignInFlow``) and the view's lifetime to itself, and is composed of
/// parts that each keep their own state: how it is shown (its ``PagePresentation``), what it
/// answers the network (``PageNetworkAnswers``), the redirects it cannot show (``RedirectWatch``),
/// the page's WebAuthn requests (``PasskeyRequests``), those waiting for the next page change
/// (``PageChangeWaiters``) and the watch for a settled page (``SettleWatch``). Signal handlers
/// reach the part that owns what they change. Its stateless files: loading (`+Loading`), waiting
/// (`+Waiting`), what scripts do with it (`+Scripting`) and what it reads for reports (`+Reading`).
@WebKitActor
final class SignInPage {
    typealias Outcome = SignInFlow.Outcome

    /// The rules of this sign-in: changed only through ``receive(_:)`` and ``failWhenSettled(after:)``.
    private var flow: SignInFlow
    private var viewReference: GObjectReference<UnsafeMutablePointer<WebKitWebView>>?
    private var windowReference: GObjectReference<UnsafeMutablePointer<GtkWidget>>?
    /// How the page is shown, until it is closed.
    private(set) var presentation: (any PagePresentation)?
    /// What the page answers when the network asks.
    let networkAnswers: PageNetworkAnswers
    private var privateContext: (context: GObjectReference<UnsafeMutablePointer<WebKitWebContext>>, downloads: SignalConnection)?
    /// The pool's place the view is borrowed from: the view goes back to it, not down with the window.
    private var reusableView: ReusableView?
    private var connections: [SignalConnection] = []
    /// Redirects the page cannot show, and the loopback listener for a form POST.
    let redirects = RedirectWatch()
    /// The page's WebAuthn requests and what answers them.
    let passkeys: PasskeyRequests
    /// Those waiting for the next committed or finished load, or the end (see ``onNextPageChange(_:)``).
    let pageChanges = PageChangeWaiters()
    private let settleWatch = SettleWatch()
    private let onEvent: @WebKitActor (WebAuthenticationEvent) -> Void
    private let onOutcome: @WebKitActor (Outcome) -> Void
    let logger: Logger

    /// Creates the window and the view and starts loading `startURL`.
    init(startURL: URL,
         policy: NavigationPolicy,
         options: WebAuthenticationOptions,
         logger: Logger,
         onEvent: @escaping @WebKitActor (WebAuthenticationEvent) -> Void,
         onOutcome: @escaping @WebKitActor (Outcome) -> Void) throws(WebAuthenticationError) {
        self.flow = SignInFlow(policy: policy, refusalMarkers: options.embeddedViewRefusalMarkers,
                               idleLimit: options.presentation.kioskSettings?.idleTimeout)
        self.logger = logger
        self.onEvent = onEvent
        self.onOutcome = onOutcome
        passkeys = PasskeyRequests(gate: SecretGate(providerURL: startURL, secretHosts: options.secretHosts), logger: logger)
        let parts = try PageConstruction(startURL: startURL, policy: policy, options: options, logger: logger)
        (viewReference, presentation, networkAnswers, privateContext) = (parts.view, parts.presentation, parts.networkAnswers, parts.privateContext)
        reusableView = parts.reusableView
        let (view, window) = (parts.view.pointer, parts.presentation.window)
        windowReference = GObjectReference(retaining: window)
        connectSignals(view: view, window: window)
        connections += parts.presentation.connect(view, to: self)
        connections.append(PasskeyChannel.install(in: view, reportingTo: self))
        connections.append(FormActionWatch.install(in: view, reportingTo: self))
        if let recorder = options.recorder { connections.append(RecorderChannel.install(in: view, reportingTo: recorder)) }
        LiveSignInPages.shared.register(self, view: view)
        if let keys = options.securityKeys, options.presentation != .headless { passkeys.offerSecurityKeys(keys) }
        gtk_widget_show_all(window)
        parts.request.withPointer { webkit_web_view_load_request(view, $0) }
    }

    /// The web view, until the page is closed or GTK destroyed its window.
    var view: UnsafeMutablePointer<WebKitWebView>? { viewReference?.pointer }

    /// The window, until the page is closed or GTK destroyed it.
    var window: UnsafeMutablePointer<GtkWidget>? { windowReference?.pointer }

    private func connectSignals(view: UnsafeMutablePointer<WebKitWebView>, window: UnsafeMutablePointer<GtkWidget>) {
        connections = [
            SignalConnection(view, .decidePolicy, target: self, handler: PageSignals.decidePolicy),
            SignalConnection(view, .create, target: self, handler: PageSignals.create),
            SignalConnection(view, .loadChanged, target: self, handler: PageSignals.loadChanged),
            SignalConnection(view, .loadFailed, target: self, handler: PageSignals.loadFailed),
            SignalConnection(view, .loadFailedWithTLSErrors, target: self, handler: PageSignals.tlsError),
            SignalConnection(view, .webProcessTerminated, target: self, handler: PageSignals.processTerminated),
            SignalConnection(view, .authenticate, target: self, handler: PageSignals.authenticate),
            SignalConnection(view, .close, target: self, handler: PageSignals.pageClosed),
            SignalConnection(view, .notify("estimated-load-progress"), target: self, handler: PageSignals.progress),
            SignalConnection(view, .notify("title"), target: self, handler: PageSignals.title),
            SignalConnection(window, .deleteEvent, target: self, handler: PageSignals.deleteEvent),
            SignalConnection(window, .keyPress, target: self, handler: PageSignals.keyPress),
            SignalConnection(window, .destroy, target: self, handler: PageSignals.windowDestroyed),
        ]
    }

    // MARK: The flow

    /// Whether the outcome has been reported (the page is closing or closed).
    var hasEnded: Bool { flow.hasEnded }

    /// Whether a document has been committed (scripts then run in a real page, not about:blank).
    var hasCommittedLoad: Bool { flow.hasCommittedLoad }

    /// When the session ends for want of input (a kiosk's idle limit), if it does.
    var idleDeadline: ContinuousClock.Instant? { flow.idleDeadline }

    /// When the page counts as settled unless it does something (``failWhenSettled(after:)``).
    var settleDeadline: ContinuousClock.Instant? { flow.settleDeadline }

    /// When the page last showed a load, a navigation or a title.
    var lastActivity: ContinuousClock.Instant { flow.lastActivity }

    /// The redirect URI the sign-in waits for.
    var redirectURI: RedirectURI { flow.policy.redirectURI }

    /// Whether the flow leaves `failure` alone (see ``SignInFlow/ignores(_:)``).
    func ignores(_ failure: LoadFailure) -> Bool { flow.ignores(failure) }

    /// Hands `event` to the flow and carries out its reaction: reports its decision, does its
    /// follow-up, reports its outcome. Returns the reaction, whose policy a signal handler applies
    /// (a follow-up that cannot be done turns it to ``SignInFlow/Policy/ignore``).
    @discardableResult
    func receive(_ event: SignInFlow.Event) -> SignInFlow.Reaction {
        var reaction = flow.handle(event)
        if case .input = event { presentation?.inputArrived() }
        if let decision = reaction.decision { report(decision) }
        if let followUp = reaction.followUp, !perform(followUp) { reaction.policy = .ignore }
        if let outcome = reaction.outcome { report(outcome) }
        return reaction
    }

    /// Ends the session with `error` (cancellation, timeout, shutdown); ignored once it has ended.
    func fail(_ error: WebAuthenticationError) {
        receive(.failed(error))
    }

    /// Does what the flow asked for; returns false if it cannot (the flow has been told why).
    private func perform(_ followUp: SignInFlow.FollowUp) -> Bool {
        switch followUp {
        case .listenForFormPost(let port):
            return redirects.listenForFormPost(port: port, on: self)
        case .checkEmbeddedViewRefusal(let markers):
            checkForEmbeddedViewRefusal(markers)
        case .readErrorPage(let status):
            Task {
                let page = await self.summary(timeout: .seconds(5))
                self.fail(.providerErrorPage(status: status, page))
            }
        case .readSchemeRequest, .waitForPageChange, .readSettledPage:
            break  // done by the caller, which has the request or the wait at hand
        }
        return true
    }

    /// Logs a decision and reports it as an event; its URL is already redacted.
    private func report(_ decision: NavigationDecision) {
        logger.debug("navigation", metadata: ["decision": "\(decision)"])
        emit(.navigation(decision))
    }

    private func report(_ outcome: Outcome) {
        let outcome = passkeys.settledOnPasskeyPrompt(outcome)
        switch outcome {
        case .success(let callback): logger.info("redirect captured", metadata: ["callback": "\(callback)"])
        case .failure(let error): logger.info("sign-in page ended", metadata: ["reason": "\(error)"])
        }
        notifyPageChange()
        onOutcome(outcome)
    }

    /// Reports a page event; it also restarts the flow's settle timer.
    func emit(_ event: WebAuthenticationEvent) {
        _ = flow.handle(.activity(at: .now))
        onEvent(event)
    }

    /// Ends the session with ``WebAuthenticationError/pageSettled(_:after:)`` once the page has
    /// gone `quiet` with no load, navigation or title event, and is not loading. Every event
    /// restarts the timer. Calling it again restarts the watch with the new `quiet`.
    func failWhenSettled(after quiet: Duration) {
        flow.failWhenSettled(after: quiet)
        settleWatch.start(on: self)
    }

    // MARK: Closing

    /// Disconnects every handler and destroys the window and the view; idempotent. Must not run
    /// inside one of the view's own signal emissions (the session defers it to the next loop
    /// iteration).
    func close() {
        let (view, window, place) = (viewReference, windowReference, reusableView)
        release()
        view?.withPointer { webkit_web_view_stop_loading($0) }
        if let place, let view, let window {
            gtk_container_remove(cwk_container(window.pointer), cwk_web_view_widget(view.pointer))
            place.giveBack()
        }
        window?.withPointer { gtk_widget_destroy($0) }
    }

    /// GTK destroys the window (and the view in it): the sign-in ends as cancelled, and the page
    /// lets go of both without touching them again.
    func windowDestroyed() {
        reusableView?.drop()
        release()
        fail(.cancelled)
    }

    /// Closes the presentation, disconnects every handler, stops the timers and the listener,
    /// and drops the window, the view and a private context.
    private func release() {
        presentation?.close()
        presentation = nil
        connections.forEach { $0.disconnect() }
        connections = []
        settleWatch.stop()
        redirects.stop()
        passkeys.documentCommitted(uri: "about:blank")  // requests under way end with the page
        if let view { LiveSignInPages.shared.unregister(view: view) }
        (windowReference, viewReference) = (nil, nil)
        if let privateContext { WebContextsByProfile.shared.forget(privateContext.context.pointer) }
        privateContext = nil
        reusableView = nil
    }

    /// Asks GTK to close the window the way a window manager's close button does (it emits
    /// `delete-event`, which ends the session as ``WebAuthenticationError/closedByUser``).
    func requestWindowClose() {
        if let window { gtk_window_close(cwk_window(window)) }
    }

    // MARK: What the network asks

    /// A page's certificate failed the system's checks: one the CA file vouches for is allowed
    /// for its host (in the whole web context) and the page loaded again; any other ends the
    /// session with ``WebAuthenticationError/tlsFailure(url:host:errors:)``.
    func tlsFailed(url: String, certificate: UnsafeMutablePointer<GTlsCertificate>?, errors: TLSErrors) {
        if let certificate, let host = URLComponents(string: url)?.host, let context = view.flatMap({ webkit_web_view_get_context($0) }),
           networkAnswers.vouchesFor(certificate, host: host, in: context) {
            emit(.certificateTrusted(host: host))
            receive(.loadSuperseded)
            // Loaded again once this signal's emission is over: loading from inside it cancels the new load.
            Task { [weak self] in self?.view.map { webkit_web_view_load_uri($0, url) } }
            return
        }
        receive(.tlsFailed(url: url, errors: errors))
    }

    /// Answers a request for credentials or a certificate (see ``PageNetworkAnswers/answer(_:)``);
    /// false leaves it to WebKit's dialog.
    func authenticate(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> Bool {
        switch networkAnswers.answer(request) {
        case .webKitDialog(let host, let realm):
            emit(.httpAuthenticationDialogShown(host: host, realm: realm))
            return false
        case .handled:
            return true
        case .failed(let error):
            fail(error)
            return true
        }
    }

    /// Answers the page's requests for HTTP authentication with `credential` from now on (nil:
    /// a headless page that asks fails).
    func answerHTTPAuthentication(with credential: HTTPCredential?) {
        if let failure = networkAnswers.answerHTTPAuthentication(with: credential) { fail(failure) }
    }

    /// Answers the page's WebAuthn requests from now on with `authenticator` (a login script's
    /// virtual one), as `gate` allows.
    func usePasskeys(_ authenticator: any PasskeyAuthenticator, gate: SecretGate) {
        passkeys.use(authenticator, gate: gate)
    }

    // MARK: Refusals

    /// Reports a `window.print()` the page may not do (its dialog never opens).
    func refusePrint() {
        let url = redactedCurrentURL ?? ""
        logger.info("print refused", metadata: ["url": "\(url)"])
        emit(.printRefused(url: url))
    }

    /// A kiosk page refused its context menu or a file chooser.
    func refused(_ refusal: (String) -> WebAuthenticationEvent, _ what: String) {
        let url = redactedCurrentURL ?? ""
        logger.info("kiosk: \(what) refused", metadata: ["url": "\(url)"])
        emit(refusal(url))
    }
}
