internal import CWebKitGTK

/// A window a person sees and uses: ``SignInWindowChrome`` around the page (the title, the host
/// and its lock, load progress, Cancel), above the host application's window when it names one.
@WebKitActor
final class WindowPresentation: PagePresentation {
    let window: UnsafeMutablePointer<GtkWidget>
    /// The header bar, progress bar and Cancel button.
    let chrome: SignInWindowChrome
    /// Another program's window this one is transient for, kept while it is.
    private let parentReference: GObjectReference<OpaquePointer>?
    var framesPage: Bool { true }
    var overlay: UnsafeMutablePointer<GtkWidget>? { nil }

    /// Puts `view` in a new `width`×`height` window, transient for and modal to `parent`.
    /// - Throws: ``WebAuthenticationError/invalidOption(_:)-swift.enum.case`` for another program's window that
    ///   cannot be used (see ``ParentWindow/makeTransient(_:)``); the window is destroyed then.
    init(view: UnsafeMutablePointer<WebKitWebView>, width: Int, height: Int, parent: ParentWindow?) throws(WebAuthenticationError) {
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!  // titled by its chrome
        gtk_window_set_default_size(cwk_window(window), gint(width), gint(height))
        chrome = SignInWindowChrome(window: window)
        gtk_box_pack_start(cwk_box(chrome.content), cwk_web_view_widget(view), 1, 1, 0)
        do { parentReference = try parent?.makeTransient(window) } catch {
            gtk_widget_destroy(window)
            throw error
        }
    }

    func connect(_ view: UnsafeMutablePointer<WebKitWebView>, to page: SignInPage) -> [SignalConnection] {
        [SignalConnection(chrome.cancelButton, .clicked, target: page, handler: PageSignals.cancelClicked)]
    }

    func pageCommitted(host: String, tls: TLSState) { chrome.show(host: host, tls: tls) }
    func show(progress: Double) { chrome.show(progress: progress) }
    func show(title: String) { chrome.show(title: title, in: window) }
}
