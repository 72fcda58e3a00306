internal import CWebKitGTK

/// A page never on screen: an off-screen window of 1024×768 that renders it, for scripts and
/// tests. It refuses printing (a dialog nobody can answer).
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
        [refusingPrint(view, to: page)]
    }
}
