internal import CWebKitGTK

/// How a sign-in page is shown: the window its view sits in and what the window shows around
/// the page (a popup's header bar, a kiosk's frame, nothing off screen). ``SignInPage`` tells it
/// what happens to the page; it never decides the sign-in. One of ``WindowPresentation``,
/// ``KioskPresentation`` and ``HeadlessPresentation``, made by ``PageConstruction``.
@WebKitActor
protocol PagePresentation: AnyObject {
    /// The top-level window that holds the view.
    var window: UnsafeMutablePointer<GtkWidget> { get }
    /// Whether the window shows more than the page (a screenshot of the window is then of it all).
    var framesPage: Bool { get }
    /// What a screenshot of the window draws over the page (a kiosk's idle warning), if anything.
    var overlay: UnsafeMutablePointer<GtkWidget>? { get }
    /// Connects what this presentation handles on `view` and its window, with `page` as the
    /// target, and starts what it runs while the page lives (a kiosk's idle watches).
    func connect(_ view: UnsafeMutablePointer<WebKitWebView>, to page: SignInPage) -> [SignalConnection]
    /// A document from `host` was committed, over a connection in the state `tls`.
    func pageCommitted(host: String, tls: TLSState)
    /// Load progress from 0 to 1.
    func show(progress: Double)
    /// The page's title (empty: it has none).
    func show(title: String)
    /// The person's input reached the page (a key, a click, a touch).
    func inputArrived()
    /// The page is closing: undoes what the presentation changed outside its window.
    func close()
}

/// What a presentation with no frame of its own does: nothing, but put the page's title on the window.
extension PagePresentation {
    func pageCommitted(host: String, tls: TLSState) {}
    func show(progress: Double) {}
    func inputArrived() {}
    func close() {}

    /// Shows `title`, or "Sign in" for a page with none, as the window's own title.
    func show(title: String) {
        gtk_window_set_title(cwk_window(window), title.isEmpty ? "Sign in" : title)
    }

    /// A page that may not print: a kiosk's print dialog would lead a visitor out of the kiosk
    /// (a printer's settings, "print to file" and its file chooser) and a headless page's would
    /// wait for an answer nobody can give. A window a person sees keeps printing: its dialog is
    /// modal to the sign-in window, and a provider may offer to print recovery codes.
    func refusingPrint(_ view: UnsafeMutablePointer<WebKitWebView>, to page: SignInPage) -> SignalConnection {
        SignalConnection(view, .print, target: page, handler: PageSignals.refusePrint)
    }
}
