internal import CWebKitGTK

/// The live sign-in pages, by web view, so process-wide callbacks (custom-scheme requests,
/// shutdown) reach the page they belong to. It also counts views and windows for diagnostics.
@WebKitActor
final class LiveSignInPages {
    static let shared = LiveSignInPages()

    private var pages: [UnsafeMutableRawPointer: SignInPage] = [:]
    /// Web views created and not yet finalized (counted by GObject weak references).
    private(set) var liveViewCount = 0
    private var finalizations: [UInt: FinalizationWatch] = [:]

    /// The pages close with the engine: the runtime runs this at shutdown.
    private init() {
        EngineRuntime.shared.atShutdown(.sessions) { LiveSignInPages.shared.closeAll(reason: .engineShutDown) }
    }

    /// Makes `page` the one of `view`; a view is counted once, however many pages it serves (a pool's kept view).
    func register(_ page: SignInPage, view: UnsafeMutablePointer<WebKitWebView>) {
        pages[UnsafeMutableRawPointer(view)] = page
        let key = UInt(bitPattern: view)
        guard finalizations[key] == nil else { return }
        liveViewCount += 1
        finalizations[key] = FinalizationWatch(view) {
            LiveSignInPages.shared.liveViewCount -= 1
            LiveSignInPages.shared.finalizations[key] = nil
        }
    }

    func unregister(view: UnsafeMutablePointer<WebKitWebView>) {
        pages[UnsafeMutableRawPointer(view)] = nil
    }

    func page(for view: UnsafeMutablePointer<WebKitWebView>?) -> SignInPage? {
        view.flatMap { pages[UnsafeMutableRawPointer($0)] }
    }

    /// Ends every live session with `reason` and destroys its window now.
    func closeAll(reason: WebAuthenticationError) {
        for page in pages.values {
            page.fail(reason)
            page.close()
        }
    }

    /// Top-level GTK windows that exist now (sign-in windows, kiosk screens and any other), not
    /// counting the popups GTK keeps for itself (tooltips, menus, input-method windows).
    var toplevelWindowCount: Int {
        let list = gtk_window_list_toplevels()
        defer { g_list_free(list) }
        var count = 0
        var node = list
        while let current = node {
            if let window = current.pointee.data?.assumingMemoryBound(to: GtkWindow.self),
               gtk_window_get_window_type(window) == GTK_WINDOW_TOPLEVEL { count += 1 }
            node = current.pointee.next
        }
        return count
    }
}
