internal import CWebKitGTK

/// A ``SignInPool`` place's web view, kept from one sign-in to the next with its web process and
/// its own ephemeral website data manager (`is-ephemeral`), so that a sign-in does not wait for a
/// web process to start. Between two sign-ins it is reset (``reset()``); one whose page left what
/// no reset removes (``LastingState``: HTTP credentials, a client certificate, a service worker,
/// seen by its ``LastingStateWatch``) is dropped instead, and the place makes a new one.
///
/// Only for headless, ephemeral sessions without a CA file (``lends(to:)``): a kiosk or a window
/// builds its own chrome around a view, and a CA file's sessions have a private context.
@WebKitActor
final class ReusableView: KeptViewPlace {
    private var view: GObjectReference<UnsafeMutablePointer<WebKitWebView>>?
    /// The view's history on its first empty page: restored to take the last sign-in's pages out of it.
    private var blankHistory: OpaquePointer?
    private var resetting: Task<Void, Never>?
    private var loadFinished: [CheckedContinuation<Void, Never>] = []
    private var loads: SignalConnection?
    /// What the view's pages left that no reset removes, watched from the view's first page on.
    private var lasting: LastingStateWatch?
    /// The places that keep a view now, so that shutdown lets go of them all (``dropAll()``).
    private static var keeping: [ObjectIdentifier: WeakTarget<ReusableView>] = [:]
    /// Asks the runtime, once, to let go of every kept view at shutdown; touched before the first view is kept.
    private static let dropsAtShutdown: Void = EngineRuntime.shared.atShutdown(.keptViews) { ReusableView.dropAll() }

    /// An empty place: its view is made by the first ``prepare()``.
    nonisolated init() {}

    isolated deinit {
        Self.keeping[ObjectIdentifier(self)] = nil
        if let blankHistory { webkit_web_view_session_state_unref(blankHistory) }
    }

    /// Whether a session with `options` may use this place's view.
    nonisolated static func lends(to options: WebAuthenticationOptions) -> Bool {
        options.presentation == .headless && options.websiteData == .ephemeral && options.caFile == nil
    }

    /// Waits until the view is ready: made (its web process started on the empty page) or reset.
    /// Leaves the place empty when no view can be made (no display): the session then reports why.
    func prepare() async {
        await resetting?.value
        resetting = nil
        guard view == nil else { return }
        do {
            try GTKEnvironment.ready(forPerson: false)
            let context = try WebContextsByProfile.shared.context(for: .ephemeral)
            let made = GObjectReference(sinking: cwk_web_view_new(context, 1)!)
            // A headless view renders without GPU compositing, as the engine's fresh ones (PageConstruction).
            webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(made.pointer), WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
            Self.switchOffSharedWorkers(webkit_web_view_get_settings(made.pointer))
            view = made
            lasting = LastingStateWatch(made.pointer)
            _ = Self.dropsAtShutdown
            Self.keeping[ObjectIdentifier(self)] = WeakTarget(self)
            loads = SignalConnection(made.pointer, .loadChanged, target: self, handler: Self.loadChanged)
            await loadBlank()
            blankHistory = webkit_web_view_get_session_state(made.pointer)
        } catch {
            view = nil
        }
    }

    /// The view, lent to one session until it is given back; nil when the place has none.
    func lend() -> UnsafeMutablePointer<WebKitWebView>? {
        view?.pointer
    }

    /// The session is over: its page let go of the view (out of any window). A view whose page left
    /// a ``LastingState`` is dropped, and the next ``prepare()`` makes a new one; any other is reset
    /// now (and dropped still if the watch learns of one before the reset is over).
    func giveBack() {
        guard lasting?.state.isLeft != true else { return drop() }
        resetting = Task { await reset() }
    }

    /// Lets go of the view once its reset is over (``SignInPool/discardViews()``).
    func discard() async {
        await resetting?.value
        resetting = nil
        drop()
    }

    /// Lets go of the view now (GTK destroyed it with its window, its page left a ``LastingState``,
    /// its reset failed): the next ``prepare()`` makes a new one.
    func drop() {
        let waiting = loadFinished
        loadFinished = []
        waiting.forEach { $0.resume() }
        view = nil
        loads = nil
        lasting = nil
        Self.keeping[ObjectIdentifier(self)] = nil
        if let blankHistory { webkit_web_view_session_state_unref(blankHistory) }
        blankHistory = nil
    }

    /// Lets go of every place's view (at shutdown: no web view outlives the loop).
    static func dropAll() {
        for place in keeping.values { place.object?.drop() }
        keeping = [:]
    }

    /// Takes everything of the last sign-in out of the view, in this order: its page (the empty page
    /// loaded and finished, so no script of it runs on; a cross-site navigation, which empties
    /// `window.name`); then, unless the page left a ``LastingState`` after all (a redirect reported
    /// after the page let go counts), which drops the view, the scripts and message handlers the
    /// page installed, all website data of its data manager (cookies, storage, IndexedDB, caches,
    /// HSTS), its network session's connections, its history, and the settings a session sets.
    private func reset() async {
        guard let held = view else { return }  // held through the waits, even if the place drops it meanwhile
        let view = held.pointer
        webkit_web_view_stop_loading(view)
        await loadBlank()
        if lasting?.state.isLeft == true { return drop() }
        let content = webkit_web_view_get_user_content_manager(view)
        webkit_user_content_manager_remove_all_scripts(content)
        webkit_user_content_manager_remove_all_style_sheets(content)
        webkit_user_content_manager_remove_all_filters(content)
        for channel in Self.channels {
            webkit_user_content_manager_unregister_script_message_handler_in_world(content, channel, JavaScriptBridge.helperWorld)
        }
        let manager = webkit_web_view_get_website_data_manager(view)!
        if await WebsiteDataClearing.clear(manager) != nil { return drop() }
        // WebKit closes the network session's connections when its proxy resolver changes: no
        // kept-alive connection of the last sign-in serves the next. Two changes, so that one is
        // real whatever route the last session took (the next session sets its own).
        webkit_website_data_manager_set_network_proxy_settings(manager, WEBKIT_NETWORK_PROXY_MODE_NO_PROXY, nil)
        webkit_website_data_manager_set_network_proxy_settings(manager, WEBKIT_NETWORK_PROXY_MODE_DEFAULT, nil)
        if let blankHistory { webkit_web_view_restore_session_state(view, blankHistory) }
        webkit_settings_set_user_agent(webkit_web_view_get_settings(view), nil)
    }

    /// No `SharedWorker` in a kept view: a shared worker's requests are not its page's, so no signal
    /// of the view shows them to the ``LastingStateWatch`` (see ``LastingState``).
    private static func switchOffSharedWorkers(_ settings: UnsafeMutablePointer<WebKitSettings>) {
        WebKitFeatures.switchOff(["SharedWorker"], in: settings)
    }

    /// Every script message handler a page registers in the engine's world (`PageScriptChannel`, `PasskeyChannel`).
    private static let channels = [FormActionWatch.channel, PasskeyBridgeScript.channel, PageFocusWatch.channel, RecorderScript.channel]

    /// The empty page between sign-ins. Not `about:blank`, which WebKit keeps out of the history: this
    /// page is the one entry of ``blankHistory``, which replaces the last sign-in's.
    private static let blank = "data:text/html,"

    /// Loads the empty page and waits until it has finished.
    private func loadBlank() async {
        guard let view = view?.pointer else { return }
        await withCheckedContinuation { continuation in
            loadFinished.append(continuation)
            webkit_web_view_load_uri(view, Self.blank)
        }
    }

    /// `load-changed`: a finished load that is not followed by another (a stopped page's late end is not the empty page's).
    private nonisolated static let loadChanged: CWKLoadChangedHandler = { view, event, data in
        let place = WeakTarget<ReusableView>.from(data)
        let idle = view.map { webkit_web_view_is_loading($0) == 0 } ?? false
        WebKitActor.assumeIsolated {
            guard event == WEBKIT_LOAD_FINISHED, idle, let place else { return }
            let waiting = place.loadFinished
            place.loadFinished = []
            waiting.forEach { $0.resume() }
        }
    }
}
