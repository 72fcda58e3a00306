import Foundation
import Logging
import OpenIDConnect
internal import CWebKitGTK

/// One sign-in's window and web view, the GObject side of a ``SignInFlow``: it loads the start
/// page, turns WebKit's and GTK's signals into the flow's events, carries out its decisions
/// (the policy, and follow-ups that need the page or the network), reports progress, and reports
/// the outcome once. ``close()`` destroys the window and the view. When GTK destroys the window
/// first (a host application destroyed its parent), the sign-in ends as cancelled and the page
/// never touches the window or the view again.
@WebKitActor
final class SignInPage {
    typealias Outcome = SignInFlow.Outcome

    private var flow: SignInFlow
    private var viewReference: GObjectReference<UnsafeMutablePointer<WebKitWebView>>?
    private var windowReference: GObjectReference<UnsafeMutablePointer<GtkWidget>>?
    /// The header bar, progress bar and Cancel button of a window presentation.
    private(set) var chrome: SignInWindowChrome?
    /// The bar, idle warning and touch keyboard around a kiosk page.
    private(set) var kioskFrame: KioskFrame?
    /// A kiosk page: closing it clears the clipboard and the primary selection (``KioskLockdown``).
    private var clearsClipboardOnClose = false
    private var connections: [SignalConnection] = []
    private var loopbackListener: LoopbackRedirectListener?
    /// The proxies the page goes through, for their credentials.
    private var proxyRoute = ProxyRoute.system
    /// What answers a server's own request for HTTP authentication.
    private var httpAuthentication: PageHTTPAuthentication
    /// What answers a server's request for a client certificate.
    private let clientCertificate: PageClientCertificate
    /// Authorities trusted beside the system's.
    private var caFile: TrustedCAFile?
    /// The ephemeral session's own web context when it trusts a CA file (see ``WebContextsByProfile/privateEphemeralContext()``).
    private var privateContext: (context: GObjectReference<UnsafeMutablePointer<WebKitWebContext>>, downloads: SignalConnection)?
    private var pageChangeWaiters: [@WebKitActor () -> Void] = []
    /// The tasks that wake the flow at its idle and settle deadlines.
    private var idleWatch: Task<Void, Never>?
    private var settleWatch: Task<Void, Never>?
    /// The task that shows and counts down a kiosk's idle warning.
    private var idleWarningWatch: Task<Void, Never>?
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
        var idleLimit: Duration?
        if case .kiosk(_, let limit) = options.presentation { idleLimit = limit }
        self.flow = SignInFlow(policy: policy, refusalMarkers: options.embeddedViewRefusalMarkers, idleLimit: idleLimit)
        self.httpAuthentication = PageHTTPAuthentication(startURL: startURL, options: options)
        self.clientCertificate = PageClientCertificate(startURL: startURL, options: options)
        self.logger = logger
        self.onEvent = onEvent
        self.onOutcome = onOutcome
        try GTKEnvironment.ready(forPerson: options.presentation != .headless)
        let request = try Self.firstRequest(startURL, headers: options.additionalHeaders)
        if let parent = options.parentWindow, cwk_is_window(parent.address) == 0 {
            throw .invalidOption(.parentWindowNotAWindow)
        }
        let kioskStyle: KioskStyle? = if case .kiosk = options.presentation { try KioskStyle(options.kiosk) } else { nil }
        let isPrivate = options.caFile != nil && options.websiteData == .ephemeral
        privateContext = isPrivate ? WebContextsByProfile.shared.privateEphemeralContext() : nil
        let context: UnsafeMutablePointer<WebKitWebContext>
        if let privateContext { context = privateContext.context.pointer } else {
            context = try WebContextsByProfile.shared.context(for: options.websiteData)
        }
        WebContextsByProfile.shared.setLanguages(options.languages, in: context)
        if policy.redirectURI.kind == .customScheme {
            WebContextsByProfile.shared.registerRedirectScheme(policy.redirectURI.scheme, in: context)
        }
        let prewarmed = options.websiteData == .ephemeral && !isPrivate ? PrewarmedView.shared.take(in: context) : nil
        let viewReference = prewarmed ?? GObjectReference(sinking: Self.makeView(in: context, perViewData: !isPrivate, options: options))
        let view = viewReference.pointer
        self.viewReference = viewReference
        configure(view, options: options)
        let window = Self.makeWindow(for: options)
        self.windowReference = GObjectReference(retaining: window)
        if case .window = options.presentation {
            let chrome = SignInWindowChrome(window: window)
            self.chrome = chrome
            gtk_box_pack_start(cwk_box(chrome.content), cwk_web_view_widget(view), 1, 1, 0)
        } else if let kioskStyle {
            kioskFrame = KioskFrame(window: window, view: view, appearance: options.kiosk, style: kioskStyle,
                                    text: KioskText(language: options.kiosk.language)) { [weak self] in self?.kioskRequested($0) }
        } else {
            gtk_container_add(cwk_container(window), cwk_web_view_widget(view))
        }
        connectSignals(view: view, window: window)
        connections.append(PasskeyStub.install(in: view, reportingTo: self))
        connections.append(FormActionWatch.install(in: view, reportingTo: self))
        if case .kiosk = options.presentation {
            connectKioskSignals(view: view)
            connections.append(KioskLockdown.keepInspectorShut(window))
            clearsClipboardOnClose = true
            idleWatch = wake(at: { $0.flow.idleDeadline }) { page in page.receive(.idleCheck(at: .now)) }
            idleWarningWatch = wake(at: { $0.kioskFrame?.nextIdleWarningChange(resetAt: $0.flow.idleDeadline, now: .now) }) { page in
                page.updateIdleWarning()
            }
        }
        switch options.presentation {
        case .window: break
        case .kiosk, .headless: connectPrintRefusal(view: view)
        }
        LiveSignInPages.shared.register(self, view: view)
        gtk_widget_show_all(window)
        request.withPointer { webkit_web_view_load_request(view, $0) }
    }

    /// The web view, until the page is closed or GTK destroyed its window.
    var view: UnsafeMutablePointer<WebKitWebView>? { viewReference?.pointer }

    /// The window, until the page is closed or GTK destroyed it.
    var window: UnsafeMutablePointer<GtkWidget>? { windowReference?.pointer }

    private static func firstRequest(_ url: URL, headers: [String: String]) throws(WebAuthenticationError)
        -> GObjectReference<UnsafeMutablePointer<WebKitURIRequest>> {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidOption(.startURLScheme(url.scheme ?? ""))
        }
        for (name, value) in headers {
            let isToken = !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains($0) }
            guard isToken, !value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
                throw .invalidOption(.additionalHeader(name: name))
            }
        }
        let request = GObjectReference(adopting: webkit_uri_request_new(url.absoluteString)!)
        let fields = webkit_uri_request_get_http_headers(request.pointer)
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            soup_message_headers_append(fields, name, value)
        }
        return request
    }

    private func configure(_ view: UnsafeMutablePointer<WebKitWebView>, options: WebAuthenticationOptions) {
        let settings = webkit_web_view_get_settings(view)
        if let userAgent = options.userAgent { webkit_settings_set_user_agent(settings, userAgent) }
        webkit_settings_set_enable_developer_extras(settings, 0)
        // Let window.open reach the `create` signal, where the policy sees it (and refuses the window).
        webkit_settings_set_javascript_can_open_windows_automatically(settings, 1)
        webkit_settings_set_enable_write_console_messages_to_stdout(settings, 0)
        webkit_website_data_manager_set_tls_errors_policy(webkit_web_view_get_website_data_manager(view),
                                                          WEBKIT_TLS_ERRORS_POLICY_FAIL)
        caFile = options.caFile
        proxyRoute = options.proxy.route(in: ProcessInfo.processInfo.environment)
        // A redirect is caught before it is sent, except a form POST to a loopback redirect URI,
        // which goes to a listener of ours on this machine: never through a proxy, which could not reach it.
        let redirect = flow.policy.redirectURI
        if redirect.kind == .loopback, let host = redirect.host, let port = redirect.port {
            proxyRoute = proxyRoute.reachingDirectly(redirect.portMatching == .exact ? "\(host):\(port)" : host)
        }
        proxyRoute.apply(to: webkit_web_view_get_website_data_manager(view))
    }

    /// A new view. A headless one renders without GPU compositing: there it buys nothing and
    /// costs a compositor thread, a GL rasteriser (llvmpipe under Xvfb) and about 60 ms at each
    /// form post. Not once views are prewarmed, which keep it: without it they leaked, and views
    /// of both kinds side by side were slower than either (bench/NOTES.md). A page a person sees
    /// keeps WebKit's default: a captcha may need WebGL.
    /// `perViewData`: an ephemeral session's view in the shared context gets website data of its own.
    private static func makeView(in context: UnsafeMutablePointer<WebKitWebContext>, perViewData: Bool,
                                 options: WebAuthenticationOptions) -> UnsafeMutablePointer<WebKitWebView> {
        let view = cwk_web_view_new(context, options.websiteData == .ephemeral && perViewData ? 1 : 0)!
        if options.presentation == .headless, !PrewarmedView.shared.isEnabled {
            webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(view), WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
        }
        return view
    }

    private static func makeWindow(for options: WebAuthenticationOptions) -> UnsafeMutablePointer<GtkWidget> {
        switch options.presentation {
        case .headless:
            let window = gtk_offscreen_window_new()!
            gtk_window_set_default_size(cwk_window(window), 1024, 768)
            return window
        case .window(let width, let height):
            let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!  // titled by its SignInWindowChrome
            gtk_window_set_default_size(cwk_window(window), gint(width), gint(height))
            if let parent = options.parentWindow {
                gtk_window_set_transient_for(cwk_window(window), parent.address.assumingMemoryBound(to: GtkWindow.self))
                gtk_window_set_modal(cwk_window(window), 1)
                gtk_window_set_destroy_with_parent(cwk_window(window), 1)
            }
            return window
        case .kiosk:
            let window = FullScreenWindow.make(title: "Sign in")
            gtk_window_set_keep_above(cwk_window(window), 1)
            return window
        }
    }

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
        if let cancel = chrome?.cancelButton {
            connections.append(SignalConnection(cancel, .clicked, target: self, handler: PageSignals.cancelClicked))
        }
    }

    /// A kiosk page: no context menu, no file chooser (each refusal reported), and every input
    /// restarts the idle timer.
    private func connectKioskSignals(view: UnsafeMutablePointer<WebKitWebView>) {
        connections.append(SignalConnection(view, .contextMenu, target: self, handler: PageSignals.refuseContextMenu))
        connections.append(SignalConnection(view, .runFileChooser, target: self, handler: PageSignals.refuseFileChooser))
        for signal in ["button-press-event", "motion-notify-event", "scroll-event", "touch-event", "key-press-event"] {
            connections.append(SignalConnection(cwk_web_view_widget(view), .input(signal), target: self, handler: PageSignals.input))
        }
    }

    /// A page that may not print: a kiosk's print dialog would lead a visitor out of the kiosk
    /// (a printer's settings, "print to file" and its file chooser) and a headless page's would
    /// wait for an answer nobody can give. A window a person sees keeps printing: its dialog is
    /// modal to the sign-in window, and a provider may offer to print recovery codes.
    private func connectPrintRefusal(view: UnsafeMutablePointer<WebKitWebView>) {
        connections.append(SignalConnection(view, .print, target: self, handler: PageSignals.refusePrint))
    }

    // MARK: The flow

    /// Whether the outcome has been reported (the page is closing or closed).
    var hasEnded: Bool { flow.hasEnded }

    /// Whether a document has been committed (scripts then run in a real page, not about:blank).
    var hasCommittedLoad: Bool { flow.hasCommittedLoad }

    /// Hands `event` to the flow and carries out its reaction: reports its decision, does its
    /// follow-up, reports its outcome. Returns the reaction, whose policy a signal handler applies
    /// (a follow-up that cannot be done turns it to ``SignInFlow/Policy/ignore``).
    @discardableResult
    func receive(_ event: SignInFlow.Event) -> SignInFlow.Reaction {
        var reaction = flow.handle(event)
        if case .input = event, kioskFrame?.dismissIdleWarning() == true { emit(.idleWarningDismissed) }
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
            return listenForFormPost(port: port)
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
        switch outcome {
        case .success(let callback): logger.info("redirect captured", metadata: ["callback": "\(callback)"])
        case .failure(let error): logger.info("sign-in page ended", metadata: ["reason": "\(error)"])
        }
        notifyPageChange()
        onOutcome(outcome)
    }

    /// Reports a page event; it also restarts the flow's settle timer.
    private func emit(_ event: WebAuthenticationEvent) {
        _ = flow.handle(.activity(at: .now))
        onEvent(event)
    }

    /// Calls `body` each time the deadline `deadline` reads passes, until it reads `nil` or the page
    /// is gone. It sleeps until the deadline and looks again; nothing polls.
    private func wake(at deadline: @escaping @WebKitActor (SignInPage) -> ContinuousClock.Instant?,
                      _ body: @escaping @WebKitActor (SignInPage) async -> Void) -> Task<Void, Never> {
        Task { [weak self] in
            while let next = self.flatMap({ deadline($0) }) {
                guard (try? await Task.sleep(until: next, clock: .continuous)) != nil, let self else { return }
                await body(self)
            }
        }
    }

    // MARK: Settling

    /// Ends the session with ``WebAuthenticationError/pageSettled(_:after:)`` once the page has
    /// gone `quiet` with no load, navigation or title event, and is not loading. Every event
    /// restarts the timer. Calling it again restarts the watch with the new `quiet`.
    func failWhenSettled(after quiet: Duration) {
        flow.failWhenSettled(after: quiet)
        settleWatch?.cancel()
        settleWatch = wake(at: { $0.flow.settleDeadline }) { page in
            switch page.receive(.settleCheck(at: .now, isLoading: page.isLoading)).followUp {
            case .waitForPageChange:
                await withCheckedContinuation { continuation in page.onNextPageChange { continuation.resume() } }
            case .readSettledPage(let seen):
                let summary = await page.summary(timeout: .seconds(5))
                if !Task.isCancelled { page.receive(.settledPageRead(summary, activitySeen: seen)) }
            default:
                break
            }
        }
    }

    /// Returns once the page has gone `quiet` from now on, with no load, navigation or title event,
    /// and is not loading; or at `deadline`, or when the page ends. A login script's `when`
    /// looks at the page then, not at the one a click is about to leave.
    func waitUntilQuiet(for quiet: Duration, until deadline: ContinuousClock.Instant) async {
        let start = ContinuousClock.now
        while !hasEnded, ContinuousClock.now < deadline {
            let settled = max(flow.lastActivity, start) + quiet
            if settled > .now {
                guard (try? await Task.sleep(until: min(settled, deadline), clock: .continuous)) != nil else { return }
            } else if isLoading {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let once = OneShot(continuation)
                    once.resume((), at: deadline)
                    onNextPageChange { once.resume(()) }
                }
            } else {
                return
            }
        }
    }

    // MARK: Closing

    /// Disconnects every handler and destroys the window and the view; idempotent. Must not run
    /// inside one of the view's own signal emissions (the session defers it to the next loop
    /// iteration).
    func close() {
        let (view, window) = (viewReference, windowReference)
        release()
        view?.withPointer { webkit_web_view_stop_loading($0) }
        window?.withPointer { gtk_widget_destroy($0) }
    }

    /// GTK destroys the window (and the view in it): the sign-in ends as cancelled, and the page
    /// lets go of both without touching them again.
    func windowDestroyed() {
        release()
        fail(.cancelled)
    }

    /// Disconnects every handler, stops the timers and the listener, and drops the window, the
    /// view and a private context.
    private func release() {
        // A kiosk visitor's session ends here, whichever way: the next visitor finds nothing to paste.
        if clearsClipboardOnClose { KioskLockdown.clearClipboard() }
        clearsClipboardOnClose = false
        connections.forEach { $0.disconnect() }
        connections = []
        idleWatch?.cancel()
        settleWatch?.cancel()
        idleWarningWatch?.cancel()
        (idleWatch, settleWatch, idleWarningWatch, loopbackListener, chrome, kioskFrame) = (nil, nil, nil, nil, nil, nil)
        if let view { LiveSignInPages.shared.unregister(view: view) }
        (windowReference, viewReference) = (nil, nil)
        if let privateContext { WebContextsByProfile.shared.forget(privateContext.context.pointer) }
        privateContext = nil
    }

    /// Asks GTK to close the window the way a window manager's close button does (it emits
    /// `delete-event`, which ends the session as ``WebAuthenticationError/closedByUser``).
    func requestWindowClose() {
        if let window { gtk_window_close(cwk_window(window)) }
    }

    // MARK: Redirects the page cannot show

    /// A request to the custom redirect scheme: the form submission the flow let through, or
    /// a page resource (`<img>`, `fetch`, XHR), which is answered with an error and logged.
    func receiveSchemeRequest(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>) {
        let url = String(cString: webkit_uri_scheme_request_get_uri(request))
        guard receive(.schemeRequested(url: url)).followUp == .readSchemeRequest else {
            return SchemeRequest.refuse(request, because: "not a navigation to the redirect URI")
        }
        let method = webkit_uri_scheme_request_get_http_method(request).map { String(cString: $0) }
        var body: String?
        if method?.uppercased() == "POST", let stream = webkit_uri_scheme_request_get_http_body(request) {
            body = GObjectReference(adopting: stream).withPointer { GLibStreams.readText($0, limit: 1 << 20) }
            if body == nil {
                SchemeRequest.refuse(request, because: "unreadable form body")
                fail(.invalidCallback(.malformedEncoding(.formPost)))
                return
            }
        }
        SchemeRequest.refuse(request, because: "captured by WebAuthSession")
        receive(.redirectReceived(url: url, formBody: body))
    }

    private func listenForFormPost(port: Int) -> Bool {
        guard loopbackListener == nil else { return true }
        let redirectURI = flow.policy.redirectURI
        do {
            loopbackListener = try LoopbackRedirectListener(
                host: redirectURI.host ?? "127.0.0.1", port: port, path: redirectURI.path, methods: ["POST"], reply: .noContent
            ) { [weak self] request in
                self?.receive(.formPostReceived(body: request.body)).policy == .use
            }
            return true
        } catch {
            fail(error)
            return false
        }
    }

    // MARK: Certificates

    /// A page's certificate failed the system's checks: one that leads to the CA file's
    /// authorities and names its host is allowed for that host (in the whole web context) and
    /// the page loaded again; any other ends the session with ``WebAuthenticationError/tlsFailure(url:host:errors:)``.
    func tlsFailed(url: String, certificate: UnsafeMutablePointer<GTlsCertificate>?, errors: TLSErrors) {
        if let caFile, let certificate, let view, let host = URLComponents(string: url)?.host, caFile.trusts(certificate, host: host),
           let context = webkit_web_view_get_context(view) {
            logger.info("certificate trusted through the CA file", metadata: ["host": "\(host)", "file": "\(caFile.path)"])
            webkit_web_context_allow_tls_certificate_for_host(context, certificate, host)
            // Loaded again once this signal's emission is over: loading from inside it cancels the new load.
            Task { [weak self] in self?.view.map { webkit_web_view_load_uri($0, url) } }
            return
        }
        receive(.tlsFailed(url: url, errors: errors))
    }

    // MARK: Proxy credentials

    /// Answers a proxy's `407` with the credentials of its URL, once; a refusal, or a proxy
    /// with none, ends the session with ``WebAuthenticationError/proxyAuthenticationFailed(proxy:credentialsGiven:)``.
    /// A server's own request goes to ``PageHTTPAuthentication``; false leaves it to WebKit's dialog.
    /// A request for a client certificate or its PIN goes to ``PageClientCertificate``.
    func authenticate(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> Bool {
        if PageClientCertificate.isAsked(by: request) {
            if let failure = clientCertificate.answer(request) { fail(failure) }
            return true
        }
        guard webkit_authentication_request_is_for_proxy(request) != 0 else { return authenticateForServer(request) }
        let host = webkit_authentication_request_get_host(request).map { String(cString: $0) } ?? ""
        let port = Int(webkit_authentication_request_get_port(request))
        let endpoint = proxyRoute.endpoint(host: host, port: port)
        guard webkit_authentication_request_is_retry(request) == 0, let user = endpoint?.user, let password = endpoint?.password else {
            webkit_authentication_request_cancel(request)
            fail(.proxyAuthenticationFailed(proxy: "\(host):\(port)", credentialsGiven: endpoint?.user != nil))
            return true
        }
        logger.debug("proxy credentials given", metadata: ["proxy": "\(host):\(port)"])
        let credential = webkit_credential_new(user, password, WEBKIT_CREDENTIAL_PERSISTENCE_FOR_SESSION)
        webkit_authentication_request_authenticate(request, credential)
        webkit_credential_free(credential)
        return true
    }

    private func authenticateForServer(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> Bool {
        switch httpAuthentication.handle(request) {
        case .webKitDialog(let host, let realm):
            emit(.httpAuthenticationDialogShown(host: host, realm: realm))
            return false
        case .handled: return true
        case .failed(let error):
            fail(error)
            return true
        }
    }

    /// Answers the page's requests for HTTP authentication with `credential` from now on (nil:
    /// a headless page that asks fails).
    func answerHTTPAuthentication(with credential: HTTPCredential?) {
        if let failure = httpAuthentication.answer(with: credential) { fail(failure) }
    }

    // MARK: Printing

    /// Reports a `window.print()` the page may not do (its dialog never opens).
    func refusePrint() {
        let url = redactedCurrentURL ?? ""
        logger.info("print refused", metadata: ["url": "\(url)"])
        emit(.printRefused(url: url))
    }

    // MARK: The kiosk's frame

    /// A kiosk page refused its context menu or a file chooser.
    func refused(_ refusal: (String) -> WebAuthenticationEvent, _ what: String) {
        let url = redactedCurrentURL ?? ""
        logger.info("kiosk: \(what) refused", metadata: ["url": "\(url)"])
        emit(refusal(url))
    }

    /// "Start over" ends the session as Escape does; a touch on the frame is the visitor's input.
    private func kioskRequested(_ request: KioskFrame.Request) {
        switch request {
        case .startOver: receive(.windowClosed)
        case .input: receive(.input(at: .now))
        case .keyboardShown(let shown): emit(.touchKeyboard(shown: shown))
        }
    }

    /// Shows, counts down or hides the idle warning for the idle deadline now.
    private func updateIdleWarning() {
        guard let deadline = flow.idleDeadline, let shown = kioskFrame?.updateIdleWarning(resetAt: deadline, now: .now) else { return }
        emit(.idleWarningShown(secondsLeft: shown))
    }

    // MARK: Load progress

    func loadChanged(_ event: WebKitLoadEvent) {
        guard let view else { return }
        let rawURL = webkit_web_view_get_uri(view).map { String(cString: $0) } ?? ""
        let url = URLRedaction.redactingValues(rawURL)
        let host = URLComponents(string: rawURL)?.host ?? ""
        switch event {
        case WEBKIT_LOAD_STARTED:
            emit(.loadStarted(url: url))
        case WEBKIT_LOAD_REDIRECTED:
            emit(.loadRedirected(url: url))
        case WEBKIT_LOAD_COMMITTED:
            receive(.loadCommitted(errorStatus: Self.errorStatus(of: view)))
            let tls = tlsState(view)
            chrome?.show(host: host, tls: tls)
            kioskFrame?.show(host: host, tls: tls)
            kioskFrame?.pageCommitted()
            emit(.loadCommitted(url: url, host: host, tls: tls))
            notifyPageChange()
        case WEBKIT_LOAD_FINISHED:
            emit(.loadFinished(url: url))
            notifyPageChange()
            receive(.loadFinished)
        default:
            break
        }
    }

    /// Reads the page for any of `markers` (the provider refusing embedded views) and tells the flow.
    private func checkForEmbeddedViewRefusal(_ markers: [String]) {
        guard let view else { return }
        let rawURL = webkit_web_view_get_uri(view).map { String(cString: $0) } ?? ""
        let (url, host) = (URLRedaction.redactingValues(rawURL), URLComponents(string: rawURL)?.host ?? "")
        let script = "location.href + '\\n' + (document.body ? document.body.innerText.slice(0, 50000) : '')"
        JavaScriptBridge.evaluate(script, in: view, world: JavaScriptBridge.helperWorld) { [weak self] result in
            guard let self else { return }
            if case .success(.string(let text)) = result, markers.contains(where: { text.contains($0) }) {
                self.fail(.embeddedViewRefused(url: url, host: host))
            } else {
                self.receive(.embeddedViewAccepted)
            }
        }
    }

    /// The HTTP status of the committed page's response if it is an error (4xx, 5xx).
    private static func errorStatus(of view: UnsafeMutablePointer<WebKitWebView>) -> Int? {
        guard let resource = webkit_web_view_get_main_resource(view), let response = webkit_web_resource_get_response(resource) else {
            return nil
        }
        let status = Int(webkit_uri_response_get_status_code(response))
        return status >= 400 ? status : nil
    }

    /// Whether the view is loading a page now.
    var isLoading: Bool {
        view.map { webkit_web_view_is_loading($0) != 0 } ?? false
    }

    private func tlsState(_ view: UnsafeMutablePointer<WebKitWebView>) -> TLSState {
        var certificate: UnsafeMutablePointer<GTlsCertificate>?
        var flags = GTlsCertificateFlags(rawValue: 0)
        guard webkit_web_view_get_tls_info(view, &certificate, &flags) != 0, let certificate else { return .none }
        if flags.rawValue == 0 { return .valid }
        let host = webkit_web_view_get_uri(view).flatMap { URLComponents(string: String(cString: $0))?.host } ?? ""
        return caFile?.trusts(certificate, host: host) == true ? .validByCAFile : .invalid(TLSErrors(rawValue: flags.rawValue))
    }

    func progressChanged() {
        guard let view else { return }
        let progress = webkit_web_view_get_estimated_load_progress(view)
        chrome?.show(progress: progress)
        kioskFrame?.show(progress: progress)
        emit(.progress(progress))
    }

    func titleChanged() {
        guard let view else { return }
        let title = webkit_web_view_get_title(view).map { String(cString: $0) } ?? ""
        if let window, let chrome {
            chrome.show(title: title, in: window)
        } else if let window {
            gtk_window_set_title(cwk_window(window), title.isEmpty ? "Sign in" : title)
        }
        emit(.titleChanged(title))
    }

    // MARK: Waiting for the page

    /// The URL of the page shown now (it may hold secrets: for scripts' predicates only).
    var currentURL: String? {
        view.flatMap { webkit_web_view_get_uri($0) }.map { String(cString: $0) }
    }

    /// The redirect URI the sign-in waits for.
    var redirectURI: RedirectURI { flow.policy.redirectURI }

    /// The URL of the page shown now with its values redacted, for messages and reports.
    var redactedCurrentURL: String? {
        currentURL.map(URLRedaction.redactingValues)
    }

    /// Calls `waiter` once, at the next committed or finished load, or when the page ends.
    func onNextPageChange(_ waiter: @escaping @WebKitActor () -> Void) {
        if hasEnded { return waiter() }
        pageChangeWaiters.append(waiter)
    }

    private func notifyPageChange() {
        let waiters = pageChangeWaiters
        pageChangeWaiters = []
        for waiter in waiters { waiter() }
    }
}
