internal import CWebKitGTK

/// One ephemeral web view made ahead of time, its web process already started on `about:blank`,
/// so that the next ephemeral session does not wait for a process to launch. Taking it makes the
/// next one. It exists only after ``WebAuthEngine/prewarm()`` (a pool or harness asks for it).
@WebKitActor
final class PrewarmedView {
    static let shared = PrewarmedView()

    private var ready: UnsafeMutablePointer<WebKitWebView>?
    private var enabled = false

    /// Starts keeping a view ready in `context`.
    func enable(in context: UnsafeMutablePointer<WebKitWebContext>) {
        enabled = true
        if ready == nil { make(in: context) }
    }

    /// The ready view (owned by the caller from now on), or `nil`; a new one is made for next time.
    /// A view still loading its `about:blank` is not ready: its navigation would reach the session.
    func take(in context: UnsafeMutablePointer<WebKitWebContext>) -> UnsafeMutablePointer<WebKitWebView>? {
        guard enabled, let view = ready, webkit_web_view_is_loading(view) == 0 else { return nil }
        ready = nil
        make(in: context)
        return view
    }

    /// Drops the ready view (at shutdown).
    func discard() {
        enabled = false
        if let view = ready { g_object_unref(UnsafeMutableRawPointer(view)) }
        ready = nil
    }

    private func make(in context: UnsafeMutablePointer<WebKitWebContext>) {
        let view = cwk_web_view_new(context, 1)!
        g_object_ref_sink(UnsafeMutableRawPointer(view))  // held here until a window takes it
        // Made for the pools and harnesses that prewarm, which run headless; a window's session sets its own.
        webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(view), SignInPage.compositing(for: .headless))
        webkit_web_view_load_html(view, "", "about:blank")
        ready = view
    }
}
