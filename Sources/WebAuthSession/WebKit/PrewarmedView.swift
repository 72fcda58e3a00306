internal import CWebKitGTK

/// One ephemeral web view made ahead of time, its web process already started on `about:blank`,
/// so that the next ephemeral session does not wait for a process to launch. Taking it makes the
/// next one. Only when ``EngineConfiguration/prewarmsWebViews`` is set: the configuration, fixed
/// when the engine starts, decides it, not who called what first.
@WebKitActor
final class PrewarmedView {
    static let shared = PrewarmedView()

    private var ready: GObjectReference<UnsafeMutablePointer<WebKitWebView>>?
    private var discarded = false

    /// The ready view goes with the engine: the runtime runs this at shutdown.
    private init() {
        EngineRuntime.shared.atShutdown(.keptViews) { PrewarmedView.shared.discard() }
    }

    /// Whether views are prewarmed (``EngineConfiguration/prewarmsWebViews``) and the engine runs.
    var isEnabled: Bool { EngineRuntime.shared.configuration.prewarmsWebViews && !discarded }

    /// Makes the first view in `context`, if views are prewarmed and none is ready yet.
    func warm(in context: UnsafeMutablePointer<WebKitWebContext>) {
        if isEnabled, ready == nil { make(in: context) }
    }

    /// The ready view (the caller's reference from now on), or `nil`; a new one is made for next time.
    /// A view still loading its `about:blank` is not ready: its navigation would reach the session.
    func take(in context: UnsafeMutablePointer<WebKitWebContext>) -> GObjectReference<UnsafeMutablePointer<WebKitWebView>>? {
        guard isEnabled else { return nil }
        guard let view = ready, webkit_web_view_is_loading(view.pointer) == 0 else {
            warm(in: context)
            return nil
        }
        ready = nil
        make(in: context)
        return view
    }

    /// Drops the ready view and makes no more (at shutdown).
    func discard() {
        discarded = true
        ready = nil
    }

    private func make(in context: UnsafeMutablePointer<WebKitWebContext>) {
        let view = GObjectReference(sinking: cwk_web_view_new(context, 1)!)  // held here until a window takes it
        // It keeps WebKit's GPU compositing: without it, prewarmed views leaked one of WebKit's
        // IPC threads and an eventfd every nine sessions or so (WebKitGTK 2.50), and switching it
        // once the page has loaded loses the web process (bench/NOTES.md).
        webkit_web_view_load_html(view.pointer, "", "about:blank")
        ready = view
    }
}
