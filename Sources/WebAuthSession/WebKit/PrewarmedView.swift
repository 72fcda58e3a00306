internal import CWebKitGTK

/// Web views made ahead of time, each with its web process already started on `about:blank`, so
/// that a session does not wait for a process to launch: one in the shared context of ephemeral
/// sessions (``EngineConfiguration/prewarmsWebViews``), and one in the context of the persistent
/// profile a window session used last (``EngineConfiguration/prewarmsProfileWindows``: a broker's
/// next sign-in of the same account). Taking one makes the next in its context. The
/// configuration, fixed when the engine starts, decides it, not who called what first.
@WebKitActor
final class PrewarmedView {
    static let shared = PrewarmedView()

    /// The ready view of the shared ephemeral context.
    private var ephemeral: Ready?
    /// The ready view of the profile context a window session used last; a window in another
    /// profile's context replaces it, so that one idle web process at most waits for a profile.
    private var profile: Ready?
    private var discarded = false

    /// A view and the context it was made in.
    private struct Ready {
        let context: UnsafeMutablePointer<WebKitWebContext>
        let view: GObjectReference<UnsafeMutablePointer<WebKitWebView>>
    }

    /// The ready views go with the engine: the runtime runs this at shutdown.
    private init() {
        EngineRuntime.shared.atShutdown(.keptViews) { PrewarmedView.shared.discard() }
    }

    /// Whether ephemeral views are prewarmed (``EngineConfiguration/prewarmsWebViews``) and the engine runs.
    var isEnabled: Bool { EngineRuntime.shared.configuration.prewarmsWebViews && !discarded }

    /// Whether profile windows are prewarmed (``EngineConfiguration/prewarmsProfileWindows``) and the engine runs.
    private var isEnabledForProfileWindows: Bool { EngineRuntime.shared.configuration.prewarmsProfileWindows && !discarded }

    /// Makes the first view in the shared ephemeral `context`, if views are prewarmed and none is ready yet.
    func warm(in context: UnsafeMutablePointer<WebKitWebContext>) {
        if isEnabled, ephemeral == nil { ephemeral = Self.make(in: context, perViewData: true) }
    }

    /// The ready view for a session with `options` in `context` (the caller's reference from now
    /// on), or `nil`; a new one is made for next time. An ephemeral session takes the shared
    /// context's view, a window in a persistent profile its profile's; a headless session in a
    /// profile takes none. A view still loading its `about:blank` is not ready: its navigation
    /// would reach the session.
    func take(in context: UnsafeMutablePointer<WebKitWebContext>, for options: WebAuthenticationOptions)
        -> GObjectReference<UnsafeMutablePointer<WebKitWebView>>? {
        let isProfile = options.websiteData != .ephemeral
        guard isProfile ? isEnabledForProfileWindows && options.presentation != .headless : isEnabled else { return nil }
        let ready = isProfile ? profile : ephemeral
        let taken = ready.flatMap { $0.context == context && webkit_web_view_is_loading($0.view.pointer) == 0 ? $0.view : nil }
        // A view still loading stays for the next session; another profile's view is let go.
        if taken != nil || ready?.context != context {
            let next = Self.make(in: context, perViewData: !isProfile)
            if isProfile { profile = next } else { ephemeral = next }
        }
        return taken
    }

    /// The profile view that is ready, and its context, if one is.
    var readyProfileView: (context: UnsafeMutablePointer<WebKitWebContext>, view: UnsafeMutablePointer<WebKitWebView>)? {
        profile.map { ($0.context, $0.view.pointer) }
    }

    /// Drops the ready views and makes no more (at shutdown).
    func discard() {
        discarded = true
        ephemeral = nil
        profile = nil
    }

    /// A new view in `context`, loading `about:blank`; with `perViewData`, with website data of its own.
    private static func make(in context: UnsafeMutablePointer<WebKitWebContext>, perViewData: Bool) -> Ready {
        let view = GObjectReference(sinking: cwk_web_view_new(context, perViewData ? 1 : 0)!)  // held here until a session takes it
        // It keeps WebKit's GPU compositing: without it, prewarmed views leaked one of WebKit's
        // IPC threads and an eventfd every nine sessions or so (WebKitGTK 2.50), and switching it
        // once the page has loaded loses the web process (bench/NOTES.md).
        webkit_web_view_load_html(view.pointer, "", "about:blank")
        return Ready(context: context, view: view)
    }
}
