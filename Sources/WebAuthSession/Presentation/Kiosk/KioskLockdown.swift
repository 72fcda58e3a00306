internal import CWebKitGTK

/// What a kiosk keeps from its visitors beyond the page: GTK's inspector (a visitor with it could
/// read and change any page, and reach the file system through its CSS and object panes), and
/// the clipboard and primary selection a visitor filled (the next visitor could paste a
/// user name or a password the last one copied or selected).
@WebKitActor
enum KioskLockdown {
    /// Keeps the GTK Inspector shut on the kiosk window `window`: Ctrl+Shift+I and Ctrl+Shift+D
    /// (the `enable-debugging` keybinding signal, live when the GSettings key
    /// `org.gtk.Settings.Debug enable-inspector-keybinding` is true) are stopped, and an inspector
    /// already open (`GTK_DEBUG=interactive`) is closed. The connection lasts as long as it is kept.
    static func keepInspectorShut(_ window: UnsafeMutablePointer<GtkWidget>) -> SignalConnection {
        closeInspector()
        return SignalConnection(window, .enableDebugging, handler: refuseInspector)
    }

    /// Stops the keybinding's emission before GTK's own handler opens the inspector.
    private nonisolated static let refuseInspector: CWKEnableDebuggingHandler = { window, _, _ in
        g_signal_stop_emission_by_name(window.map { UnsafeMutableRawPointer($0) }, "enable-debugging")
        return 1
    }

    /// Closes the inspector if it is open. Only then: GTK would build one to hide it.
    private static func closeInspector() {
        if isInspectorOpen { gtk_window_set_interactive_debugging(0) }
    }

    /// Whether a GTK Inspector window is showing in this process.
    static var isInspectorOpen: Bool {
        let toplevels = gtk_window_list_toplevels()
        defer { g_list_free(toplevels) }
        var node = toplevels
        while let current = node {
            if let window = current.pointee.data, String(cString: cwk_object_type_name(window)) == "GtkInspectorWindow",
               gtk_widget_get_visible(window.assumingMemoryBound(to: GtkWidget.self)) != 0 { return true }
            node = current.pointee.next
        }
        return false
    }

    /// Takes the CLIPBOARD and the PRIMARY selection with empty text: what the last visitor
    /// copied (Ctrl+C) or selected is no longer there to paste.
    static func clearClipboard() {
        cwk_clear_clipboard_and_primary()
    }
}
