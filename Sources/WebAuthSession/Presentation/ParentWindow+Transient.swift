internal import CWebKitGTK

extension ParentWindow {
    /// Makes `window` (not yet shown) transient for and modal to this parent. For another
    /// program's window, `window` is realized here: call it once its title bar is set.
    /// - Returns: what must live as long as `window`: the GDK window of another program's X11
    ///   window (a window manager keeps the hint by its ID; GDK needs its wrapper).
    /// - Throws: ``WebAuthenticationError/invalidOption(_:)-swift.enum.case`` when the display is of another
    ///   kind than the parent's, the X11 window does not exist, or the compositor cannot import
    ///   the Wayland handle.
    @WebKitActor
    func makeTransient(_ window: UnsafeMutablePointer<GtkWidget>) throws(WebAuthenticationError) -> GObjectReference<OpaquePointer>? {
        gtk_window_set_modal(cwk_window(window), 1)
        switch kind {
        case .gtkWindow(let address):
            gtk_window_set_transient_for(cwk_window(window), address.assumingMemoryBound(to: GtkWindow.self))
            gtk_window_set_destroy_with_parent(cwk_window(window), 1)
            return nil
        case .x11(let id):
            guard let foreign = cwk_foreign_x11_window(id) else { throw .invalidOption(.parentWindowNotFound(identifier: portalIdentifier ?? "")) }
            let parent = GObjectReference(adopting: foreign)
            cwk_window_set_transient_for_foreign(window, foreign)
            return parent
        case .wayland(let handle):
            guard cwk_window_set_transient_for_exported(window, handle) != 0 else {
                throw .invalidOption(.parentWindowNotImported(identifier: portalIdentifier ?? ""))
            }
            return nil
        }
    }
}
