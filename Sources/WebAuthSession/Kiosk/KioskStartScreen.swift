internal import CWebKitGTK

/// The screen a kiosk shows between visitors: full screen, a message and one big button. It
/// refuses to be closed; only ``close()`` removes it.
@WebKitActor
final class KioskStartScreen {
    private var window: UnsafeMutablePointer<GtkWidget>?
    private(set) var button: UnsafeMutablePointer<GtkWidget>?
    private(set) var message = ""
    private var connections: [SignalConnection] = []
    private var onPress: (@WebKitActor () -> Void)?
    private let onCloseRefused: @WebKitActor () -> Void

    /// Shows `message` and a button labelled `action` in `style`'s look (its logo and title
    /// above); `onPress` runs once when it is pressed, `onCloseRefused` at each close request it ignores.
    init(message: String, action: String, style: KioskStyle, onPress: @escaping @WebKitActor () -> Void,
         onCloseRefused: @escaping @WebKitActor () -> Void) throws(WebAuthenticationError) {
        try GTKEnvironment.ready(forPerson: true)
        self.message = message
        self.onPress = onPress
        self.onCloseRefused = onCloseRefused
        let window = FullScreenWindow.make(title: action)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 24)!
        gtk_widget_set_valign(box, GTK_ALIGN_CENTER)
        gtk_widget_set_halign(box, GTK_ALIGN_CENTER)
        KioskStyle.addClass("kiosk-start", to: box)
        style.packBranding(into: box)
        let label = gtk_label_new(message)!
        gtk_label_set_line_wrap(cwk_label(label), 1)
        KioskStyle.addClass("kiosk-message", to: label)
        let button = gtk_button_new_with_label(action)!
        gtk_widget_set_size_request(button, 320, 96)
        gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
        gtk_box_pack_start(cwk_box(box), label, 0, 0, 0)
        gtk_box_pack_start(cwk_box(box), button, 0, 0, 0)
        gtk_container_add(cwk_container(window), box)
        style.apply(to: window)
        connections = [
            SignalConnection(button, .clicked, target: self, handler: Self.pressedHandler),
            // Alt+F4 or the window manager's close (WM_DELETE_WINDOW) keeps it (TRUE): the kiosk
            // waits on this screen, and without it the next visitor would find nothing to press.
            SignalConnection(window, .deleteEvent, target: self, handler: Self.keepOpen),
            KioskLockdown.keepInspectorShut(window),
        ]
        self.window = window
        self.button = button
        gtk_widget_show_all(window)
        // Usable with a keyboard alone: the button has the focus, drawn, so Enter or Space starts.
        gtk_widget_grab_focus(button)
        gtk_window_set_focus_visible(cwk_window(window), 1)
    }

    private nonisolated static let pressedHandler: CWKClickedHandler = { _, data in
        let screen = WeakTarget<KioskStartScreen>.from(data)
        WebKitActor.assumeIsolated { screen?.pressed() }
    }

    private nonisolated static let keepOpen: CWKDeleteEventHandler = { _, _, data in
        let screen = WeakTarget<KioskStartScreen>.from(data)
        WebKitActor.assumeIsolated { screen?.onCloseRefused() }
        return 1
    }

    private func pressed() {
        guard let onPress else { return }
        self.onPress = nil
        onPress()
    }

    /// Destroys the window; idempotent.
    func close() {
        connections.forEach { $0.disconnect() }
        if let window { gtk_widget_destroy(window) }
        (window, button, connections, onPress) = (nil, nil, [], nil)
    }
}
