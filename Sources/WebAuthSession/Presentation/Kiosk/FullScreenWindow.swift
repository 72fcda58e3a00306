internal import CWebKitGTK

/// The kiosk's windows (the sign-in page and the start screen): no decorations, full screen, and
/// sized to the primary monitor too, so they cover the screen even where no window manager
/// honours "fullscreen" (a bare X server).
@WebKitActor
enum FullScreenWindow {
    /// A new top-level window titled `title`, covering the screen.
    static func make(title: String) -> UnsafeMutablePointer<GtkWidget> {
        let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        gtk_window_set_title(cwk_window(window), title)
        gtk_window_set_decorated(cwk_window(window), 0)
        if let display = gdk_display_get_default(),
           let monitor = gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0) {
            var area = GdkRectangle()
            gdk_monitor_get_geometry(monitor, &area)
            gtk_window_move(cwk_window(window), area.x, area.y)
            gtk_window_set_default_size(cwk_window(window), area.width, area.height)
        }
        gtk_window_fullscreen(cwk_window(window))
        return window
    }
}
