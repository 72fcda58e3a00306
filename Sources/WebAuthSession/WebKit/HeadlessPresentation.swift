internal import CWebKitGTK

/// A page never on screen: an off-screen window of 1024×768 that renders it, for scripts and
/// tests. It refuses printing (a dialog nobody can answer), and GTK never paints the view
/// (``noPainting``): screenshots come from WebKit's snapshot, which the web process renders.
@WebKitActor
final class HeadlessPresentation: PagePresentation {
    let window: UnsafeMutablePointer<GtkWidget>
    var framesPage: Bool { false }
    var overlay: UnsafeMutablePointer<GtkWidget>? { nil }

    /// Puts `view` in a new off-screen window.
    init(view: UnsafeMutablePointer<WebKitWebView>) {
        window = gtk_offscreen_window_new()!
        gtk_window_set_default_size(cwk_window(window), 1024, 768)
        gtk_container_add(cwk_container(window), cwk_web_view_widget(view))
    }

    func connect(_ view: UnsafeMutablePointer<WebKitWebView>, to page: SignInPage) -> [SignalConnection] {
        [refusingPrint(view, to: page), SignalConnection(cwk_web_view_widget(view), .draw, handler: Self.noPainting)]
    }

    /// Paints nothing in the view's place, so WebKit's own painting never runs. Nobody sees an
    /// off-screen window, and WebKit's painting of a page without GPU compositing (every headless
    /// page made fresh) that has no frame from its web process yet asks that process for one and
    /// waits for it, up to 500 ms, on the engine's thread. While a new web process is still
    /// starting it may itself be waiting on that thread, and the wait then lasted all 500 ms with
    /// every process idle (seen in 3 of 40 cold `webauth login`s, the view's first paint in each).
    private static let noPainting: CWKDrawHandler = { _, _, _ in 1 }
}
