import Foundation
import Logging
import OpenIDConnect
internal import CWebKitGTK

/// One sign-in's window and web view: it loads the start page, decides every navigation with
/// the ``NavigationPolicy``, reports progress, and reports exactly one outcome (the callback
/// or an error). ``close()`` destroys the window and the view.
@WebKitActor
final class SignInPage {
    typealias Outcome = Result<RedirectCallback, WebAuthSessionError>

    let policy: NavigationPolicy
    private(set) var view: UnsafeMutablePointer<WebKitWebView>?
    private(set) var window: UnsafeMutablePointer<GtkWidget>?
    /// The header bar, progress bar and Cancel button of a window presentation.
    private(set) var chrome: SignInWindowChrome?
    private var handlers: [(instance: gpointer, id: gulong)] = []
    private var loopbackListener: LoopbackRedirectListener?
    private var pendingFormPostURL: String?
    /// The custom-scheme form submission the policy let through to the scheme handler; any
    /// other request that reaches the handler is a page resource, never the redirect.
    private var pendingSchemeSubmission: String?
    private var pageChangeWaiters: [@WebKitActor () -> Void] = []
    /// Whether a document has been committed (scripts then run in a real page, not about:blank).
    private(set) var hasCommittedLoad = false
    /// The HTTP error status (4xx, 5xx) the provider answered the first load (the start page and
    /// its redirects) with; the page then fails once that error page has loaded.
    private var startPageErrorStatus: Int?
    private let refusalMarkers: [String]
    /// A kiosk's last input, and the task that ends the page when it is too long ago.
    private var lastInput = ContinuousClock.now
    private var idleWatch: Task<Void, Never>?
    private let onEvent: @WebKitActor (WebAuthenticationEvent) -> Void
    private var onOutcome: (@WebKitActor (Outcome) -> Void)?
    let logger: Logger

    /// Creates the window and the view and starts loading `startURL`.
    init(startURL: URL,
         policy: NavigationPolicy,
         options: SessionOptions,
         logger: Logger,
         onEvent: @escaping @WebKitActor (WebAuthenticationEvent) -> Void,
         onOutcome: @escaping @WebKitActor (Outcome) -> Void) throws(WebAuthSessionError) {
        self.policy = policy
        self.logger = logger
        self.onEvent = onEvent
        self.onOutcome = onOutcome
        self.refusalMarkers = options.embeddedViewRefusalMarkers
        try GTKEnvironment.ready(forPerson: options.presentation != .headless)
        let request = try Self.firstRequest(startURL, headers: options.additionalHeaders)
        defer { g_object_unref(request) }
        if let parent = options.parentWindow, cwk_is_window(parent.address) == 0 {
            throw .invalidOption("parentWindow is not a GtkWindow")
        }
        let context = try WebContextPool.shared.context(for: options.websiteData)
        if policy.redirectURI.kind == .customScheme {
            WebContextPool.shared.registerRedirectScheme(policy.redirectURI.scheme, in: context)
        }
        let isEphemeral = options.websiteData == .ephemeral
        let prewarmed = isEphemeral ? PrewarmedView.shared.take(in: context) : nil
        let view = prewarmed ?? Self.makeView(in: context, options: options)
        self.view = view
        configure(view, options: options)
        let window = Self.makeWindow(for: options)
        self.window = window
        if case .window = options.presentation {
            let chrome = SignInWindowChrome(window: window)
            self.chrome = chrome
            gtk_box_pack_start(cwk_box(chrome.content), cwk_web_view_widget(view), 1, 1, 0)
        } else {
            gtk_container_add(cwk_container(window), cwk_web_view_widget(view))
        }
        if prewarmed != nil { g_object_unref(UnsafeMutableRawPointer(view)) }  // the window holds it now, as it holds a new one
        connectSignals(view: view, window: window)
        if case .kiosk(_, let idleTimeout) = options.presentation {
            connectKioskSignals(view: view)
            watchIdleness(limit: idleTimeout)
        }
        switch options.presentation {
        case .window: break
        case .kiosk, .headless: connectPrintRefusal(view: view)
        }
        SessionRegistry.shared.register(self, view: view)
        gtk_widget_show_all(window)
        webkit_web_view_load_request(view, request)
    }

    private static func firstRequest(_ url: URL, headers: [String: String]) throws(WebAuthSessionError) -> UnsafeMutablePointer<WebKitURIRequest> {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidOption("the start URL must be http or https, not '\(url.scheme ?? "")'")
        }
        for (name, value) in headers {
            let isToken = !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains($0) }
            guard isToken, !value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
                throw .invalidOption("additional header '\(name)' is not a valid HTTP header")
            }
        }
        let request = webkit_uri_request_new(url.absoluteString)!
        let fields = webkit_uri_request_get_http_headers(request)
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            soup_message_headers_append(fields, name, value)
        }
        return request
    }

    private func configure(_ view: UnsafeMutablePointer<WebKitWebView>, options: SessionOptions) {
        let settings = webkit_web_view_get_settings(view)
        if let userAgent = options.userAgent { webkit_settings_set_user_agent(settings, userAgent) }
        webkit_settings_set_enable_developer_extras(settings, 0)
        // Let window.open reach the `create` signal, where the policy sees it (and refuses the window).
        webkit_settings_set_javascript_can_open_windows_automatically(settings, 1)
        webkit_settings_set_enable_write_console_messages_to_stdout(settings, 0)
        webkit_website_data_manager_set_tls_errors_policy(webkit_web_view_get_website_data_manager(view),
                                                          WEBKIT_TLS_ERRORS_POLICY_FAIL)
    }

    /// A new view. A headless one renders without GPU compositing: there it buys nothing and
    /// costs a compositor thread, a GL rasteriser (llvmpipe under Xvfb) and about 60 ms at each
    /// form post. Not once views are prewarmed, which keep it: without it they leaked, and views
    /// of both kinds side by side were slower than either (bench/NOTES.md). A page a person sees
    /// keeps WebKit's default: a captcha may need WebGL.
    private static func makeView(in context: UnsafeMutablePointer<WebKitWebContext>, options: SessionOptions) -> UnsafeMutablePointer<WebKitWebView> {
        let view = cwk_web_view_new(context, options.websiteData == .ephemeral ? 1 : 0)!
        if options.presentation == .headless, !PrewarmedView.shared.isEnabled {
            webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(view), WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
        }
        return view
    }

    private static func makeWindow(for options: SessionOptions) -> UnsafeMutablePointer<GtkWidget> {
        switch options.presentation {
        case .headless:
            let window = gtk_offscreen_window_new()!
            gtk_window_set_default_size(cwk_window(window), 1024, 768)
            return window
        case .window(let width, let height):
            let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            gtk_window_set_title(cwk_window(window), "Sign in")
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

    /// A kiosk page: no context menu, no file chooser, and every input restarts the idle timer.
    private func connectKioskSignals(view: UnsafeMutablePointer<WebKitWebView>) {
        let target = SignalTarget(self)
        let release = SignalTarget.release
        let viewPointer = UnsafeMutableRawPointer(view)
        handlers.append((viewPointer, cwk_connect_context_menu(view, PageSignals.refuseContextMenu, target.retainedPointer(), release)))
        handlers.append((viewPointer, cwk_connect_run_file_chooser(view, PageSignals.refuseFileChooser, target.retainedPointer(), release)))
        for signal in ["button-press-event", "motion-notify-event", "scroll-event", "touch-event", "key-press-event"] {
            handlers.append((viewPointer, cwk_connect_input_event(cwk_web_view_widget(view), signal, PageSignals.input,
                                                                  target.retainedPointer(), release)))
        }
    }

    /// A page that may not print: a kiosk's print dialog would lead a visitor out of the kiosk
    /// (a printer's settings, "print to file" and its file chooser) and a headless page's would
    /// wait for an answer nobody can give. A window a person sees keeps printing: its dialog is
    /// modal to the sign-in window, and a provider may offer to print recovery codes.
    private func connectPrintRefusal(view: UnsafeMutablePointer<WebKitWebView>) {
        let target = SignalTarget(self)
        handlers.append((UnsafeMutableRawPointer(view), cwk_connect_print(view, PageSignals.refusePrint, target.retainedPointer(), SignalTarget.release)))
    }

    // MARK: Kiosk idleness

    /// Someone touched the page: the idle timer starts again.
    func noteInput() {
        lastInput = .now
    }

    /// Ends the page as abandoned once `limit` passes without a person's input (a page that
    /// loads or reloads by itself does not count). It sleeps until the deadline and looks
    /// again; nothing polls.
    private func watchIdleness(limit: Duration) {
        idleWatch = Task { [weak self] in
            while let deadline = self.map({ $0.lastInput + limit }) {
                guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil, let self, !self.hasEnded else { return }
                if ContinuousClock.now >= self.lastInput + limit { return self.fail(.abandoned(after: limit)) }
            }
        }
    }

    private func connectSignals(view: UnsafeMutablePointer<WebKitWebView>, window: UnsafeMutablePointer<GtkWidget>) {
        let target = SignalTarget(self)
        let release = SignalTarget.release
        let viewPointer = UnsafeMutableRawPointer(view)
        handlers = [
            (viewPointer, cwk_connect_decide_policy(view, PageSignals.decidePolicy, target.retainedPointer(), release)),
            (viewPointer, cwk_connect_create(view, PageSignals.create, target.retainedPointer(), release)),
            (viewPointer, cwk_connect_load_changed(view, PageSignals.loadChanged, target.retainedPointer(), release)),
            (viewPointer, cwk_connect_load_failed(view, PageSignals.loadFailed, target.retainedPointer(), release)),
            (viewPointer, cwk_connect_load_failed_with_tls_errors(view, PageSignals.tlsError, target.retainedPointer(), release)),
            (viewPointer, cwk_connect_web_process_terminated(view, PageSignals.processTerminated, target.retainedPointer(), release)),
            (viewPointer, cwk_connect_view_close(view, PageSignals.pageClosed, target.retainedPointer(), release)),
            (viewPointer, cwk_connect_notify(view, "notify::estimated-load-progress", PageSignals.progress, target.retainedPointer(), release)),
            (viewPointer, cwk_connect_notify(view, "notify::title", PageSignals.title, target.retainedPointer(), release)),
            (UnsafeMutableRawPointer(window), cwk_connect_delete_event(window, PageSignals.deleteEvent, target.retainedPointer(), release)),
            (UnsafeMutableRawPointer(window), cwk_connect_key_press(window, PageSignals.keyPress, target.retainedPointer(), release)),
        ]
        if let cancel = chrome?.cancelButton {
            handlers.append((UnsafeMutableRawPointer(cancel), cwk_connect_clicked(cancel, PageSignals.cancelClicked, target.retainedPointer(), release)))
        }
    }

    // MARK: Outcome

    /// Whether the outcome has been reported (the page is closing or closed).
    var hasEnded: Bool { onOutcome == nil }

    /// Reports the outcome once; later calls are ignored.
    func end(with outcome: Outcome) {
        guard let report = onOutcome else { return }
        onOutcome = nil
        if case .failure(let error) = outcome {
            logger.info("sign-in page ended", metadata: ["reason": "\(error)"])
        }
        notifyPageChange()
        report(outcome)
    }

    /// Ends the session with `error` (used by cancellation, timeout and shutdown).
    func fail(_ error: WebAuthSessionError) {
        end(with: .failure(error))
    }

    /// Disconnects every handler and destroys the window and the view; idempotent. Must not run
    /// inside one of the view's own signal emissions (the session defers it to the next loop
    /// iteration).
    func close() {
        for handler in handlers { g_signal_handler_disconnect(handler.instance, handler.id) }
        handlers = []
        idleWatch?.cancel()
        idleWatch = nil
        loopbackListener = nil
        if let view {
            SessionRegistry.shared.unregister(view: view)
            webkit_web_view_stop_loading(view)
        }
        if let window { gtk_widget_destroy(window) }
        window = nil
        view = nil
    }

    /// Asks GTK to close the window the way a window manager's close button does (it emits
    /// `delete-event`, which ends the session as ``WebAuthSessionError/closedByUser``).
    func requestWindowClose() {
        if let window { gtk_window_close(cwk_window(window)) }
    }

    // MARK: Navigation

    /// Applies the policy to a navigation; returns whether WebKit may go on with it.
    func decide(_ request: NavigationRequest) -> Bool {
        let verdict = policy.verdict(for: request)
        let record: NavigationDecision.Verdict
        var proceed = false
        switch verdict {
        case .allow:
            record = .allowed
            proceed = true
        case .capture:
            record = .captured
        case .captureThroughSchemeHandler:
            record = .captured
            proceed = true
        case .captureThroughLoopbackListener(let port):
            record = .captured
            proceed = listenForFormPost(to: request.url, port: port)
        case .refuse(let reason):
            record = .refused(reason)
        case .fail:
            record = .refused(.unreadableResponse)
        }
        report(NavigationDecision(url: URLRedaction.redactingValues(request.url), verdict: record))
        switch verdict {
        case .capture: capture(url: request.url, formBody: nil)
        case .captureThroughSchemeHandler: pendingSchemeSubmission = request.url
        case .fail(let error): fail(error)
        default: break
        }
        return proceed
    }

    /// Logs a decision and reports it as an event; its URL is already redacted.
    private func report(_ decision: NavigationDecision) {
        logger.debug("navigation", metadata: ["decision": "\(decision)"])
        onEvent(.navigation(decision))
    }

    /// Turns a redirect into the outcome.
    func capture(url: String, formBody: String?) {
        do throws(RedirectCallbackError) {
            let callback = try RedirectCallback(url: url, formBody: formBody, redirectURI: policy.redirectURI)
            logger.info("redirect captured", metadata: ["callback": "\(callback)"])
            end(with: .success(callback))
        } catch {
            end(with: .failure(.invalidCallback(error)))
        }
    }

    /// A request to the custom redirect scheme: the form submission the policy let through, or
    /// a page resource (`<img>`, `fetch`, XHR), which is answered with an error and logged.
    func receiveSchemeRequest(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>) {
        let url = String(cString: webkit_uri_scheme_request_get_uri(request))
        guard !hasEnded, let expected = pendingSchemeSubmission, expected == url else {
            SchemeRequest.refuse(request, because: "not a navigation to the redirect URI")
            report(NavigationDecision(url: URLRedaction.redactingValues(url), verdict: .refused(.redirectSubresource)))
            return
        }
        pendingSchemeSubmission = nil
        let method = webkit_uri_scheme_request_get_http_method(request).map { String(cString: $0) }
        var body: String?
        if method?.uppercased() == "POST", let stream = webkit_uri_scheme_request_get_http_body(request) {
            body = GLibStreams.readText(stream, limit: 1 << 20)
            g_object_unref(stream)
            if body == nil {
                SchemeRequest.refuse(request, because: "unreadable form body")
                end(with: .failure(.invalidCallback(.malformedEncoding(.formPost))))
                return
            }
        }
        SchemeRequest.refuse(request, because: "captured by WebAuthSession")
        capture(url: url, formBody: body)
    }

    private func listenForFormPost(to url: String, port: Int) -> Bool {
        do {
            pendingFormPostURL = url
            if loopbackListener == nil {
                loopbackListener = try LoopbackRedirectListener(
                    host: policy.redirectURI.host ?? "127.0.0.1", port: port, path: policy.redirectURI.path, methods: ["POST"], reply: .noContent
                ) { [weak self] request in
                    guard let self, let url = self.pendingFormPostURL else { return false }
                    self.capture(url: url, formBody: request.body)
                    return true
                }
            }
            return true
        } catch {
            fail(error)
            return false
        }
    }

    // MARK: Downloads and printing

    /// Applies the no-downloads rule to a navigation's response; returns whether WebKit may show it.
    func decide(_ response: NavigationResponse) -> Bool {
        guard response.wouldDownload else { return true }
        refuseDownload(of: response.url)
        return false
    }

    /// Reports a download the engine stopped: a response refused, or one WebKit started anyway
    /// (cancelled by ``WebContextPool``).
    func refuseDownload(of url: String) {
        report(NavigationDecision(url: URLRedaction.redactingValues(url), verdict: .refused(.download)))
    }

    /// Reports a `window.print()` the page may not do (its dialog never opens).
    func refusePrint() {
        let url = redactedCurrentURL ?? ""
        logger.info("print refused", metadata: ["url": "\(url)"])
        onEvent(.printRefused(url: url))
    }

    // MARK: Load progress

    func loadChanged(_ event: WebKitLoadEvent) {
        guard let view else { return }
        let rawURL = webkit_web_view_get_uri(view).map { String(cString: $0) } ?? ""
        let url = URLRedaction.redactingValues(rawURL)
        let host = URLComponents(string: rawURL)?.host ?? ""
        switch event {
        case WEBKIT_LOAD_STARTED:
            onEvent(.loadStarted(url: url))
        case WEBKIT_LOAD_REDIRECTED:
            onEvent(.loadRedirected(url: url))
        case WEBKIT_LOAD_COMMITTED:
            if !hasCommittedLoad { startPageErrorStatus = Self.errorStatus(of: view) }
            hasCommittedLoad = true
            let tls = tlsState(view)
            chrome?.show(host: host, tls: tls)
            onEvent(.loadCommitted(url: url, host: host, tls: tls))
            notifyPageChange()
        case WEBKIT_LOAD_FINISHED:
            onEvent(.loadFinished(url: url))
            notifyPageChange()
            checkForEmbeddedViewRefusal(view, url: url, host: host) { [weak self] in self?.failOnStartPageError() }
        default:
            break
        }
    }

    /// Ends the session when the page says the provider refuses embedded views; otherwise
    /// calls `notRefused` (a refusal is the more precise failure when both apply).
    private func checkForEmbeddedViewRefusal(_ view: UnsafeMutablePointer<WebKitWebView>, url: String, host: String,
                                             notRefused: @escaping @WebKitActor () -> Void) {
        guard !refusalMarkers.isEmpty else { return notRefused() }
        let script = "location.href + '\\n' + (document.body ? document.body.innerText.slice(0, 50000) : '')"
        JavaScriptBridge.evaluate(script, in: view, world: JavaScriptBridge.helperWorld) { [weak self] result in
            guard let self, !self.hasEnded else { return }
            guard case .success(.string(let text)) = result, self.refusalMarkers.contains(where: { text.contains($0) }) else {
                return notRefused()
            }
            self.fail(.embeddedViewRefused(url: url, host: host))
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

    /// Ends the session with ``WebAuthSessionError/providerErrorPage(status:_:)`` when the start
    /// page was an error page: nobody can sign in there. Later pages may answer with an error
    /// status and still be a login page (a wrong password's 401).
    private func failOnStartPageError() {
        guard let status = startPageErrorStatus else { return }
        startPageErrorStatus = nil
        Task {
            let page = await self.summary(timeout: .seconds(5))
            self.fail(.providerErrorPage(status: status, page))
        }
    }

    /// Whether the view is loading a page now.
    var isLoading: Bool {
        view.map { webkit_web_view_is_loading($0) != 0 } ?? false
    }

    private func tlsState(_ view: UnsafeMutablePointer<WebKitWebView>) -> TLSState {
        var certificate: UnsafeMutablePointer<GTlsCertificate>?
        var flags = GTlsCertificateFlags(rawValue: 0)
        guard webkit_web_view_get_tls_info(view, &certificate, &flags) != 0, certificate != nil else { return .none }
        return flags.rawValue == 0 ? .valid : .invalid(TLSErrors(rawValue: flags.rawValue))
    }

    func loadFailed(_ failure: LoadFailure) {
        guard !failure.causedByPolicy, !hasEnded else { return }
        fail(.loadFailed(url: URLRedaction.redactingValues(failure.url), domain: failure.domain, code: failure.code, message: failure.message))
    }

    func tlsFailed(url: String, errors: TLSErrors) {
        fail(.tlsFailure(url: URLRedaction.redactingValues(url), host: URLComponents(string: url)?.host ?? "", errors: errors))
    }

    func progressChanged() {
        guard let view else { return }
        let progress = webkit_web_view_get_estimated_load_progress(view)
        chrome?.show(progress: progress)
        onEvent(.progress(progress))
    }

    func titleChanged() {
        guard let view else { return }
        let title = webkit_web_view_get_title(view).map { String(cString: $0) } ?? ""
        if let window, let chrome {
            chrome.show(title: title, in: window)
        } else if let window {
            gtk_window_set_title(cwk_window(window), title.isEmpty ? "Sign in" : title)
        }
        onEvent(.titleChanged(title))
    }

    // MARK: Waiting for the page

    /// The URL of the page shown now (it may hold secrets: for scripts' predicates only).
    var currentURL: String? {
        view.flatMap { webkit_web_view_get_uri($0) }.map { String(cString: $0) }
    }

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
