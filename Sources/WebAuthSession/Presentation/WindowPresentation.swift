internal import CWebKitGTK

/// A window a person sees and uses: ``SignInWindowChrome`` around the page (the title, the host
/// and its lock, load progress, Cancel), above the host application's window when it names one.
@WebKitActor
final class WindowPresentation: PagePresentation {
    let window: UnsafeMutablePointer<GtkWidget>
    /// The header bar, progress bar and Cancel button.
    let chrome: SignInWindowChrome
    var framesPage: Bool { true }
    var overlay: UnsafeMutablePointer<GtkWidget>? { nil }

    /// Puts `view` in a new `width`×`height` window, transient for and modal to `parent`.
    init(view: UnsafeMutablePointer<WebKitWebView>, width: Int, height: Int, parent: ParentWindow?) {
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!  // titled by its chrome
        gtk_window_set_default_size(cwk_window(window), gint(width), gint(height))
        if let parent {
            gtk_window_set_transient_for(cwk_window(window), parent.address.assumingMemoryBound(to: GtkWindow.self))
            gtk_window_set_modal(cwk_window(window), 1)
            gtk_window_set_destroy_with_parent(cwk_window(window), 1)
        }
        chrome = SignInWindowChrome(window: window)
        gtk_box_pack_start(cwk_box(chrome.content), cwk_web_view_widget(view), 1, 1, 0)
    }

    func connect(_ view: UnsafeMutablePointer<WebKitWebView>, to page: SignInPage) -> [SignalConnection] {
        [SignalConnection(chrome.cancelButton, .clicked, target: page, handler: PageSignals.cancelClicked)]
    }

    func pageCommitted(host: String, tls: TLSState) { chrome.show(host: host, tls: tls) }
    func show(progress: Double) { chrome.show(progress: progress) }
    func show(title: String) { chrome.show(title: title, in: window) }
    func inputArrived() {}
    func close() {}
}
