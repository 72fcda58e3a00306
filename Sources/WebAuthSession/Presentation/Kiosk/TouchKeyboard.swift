internal import CWebKitGTK

/// The kiosk's on-screen keyboard: a GTK widget in the kiosk window, under the page, for a
/// touch screen with no keyboard. Shown while a text field of the page has focus. A key press
/// is only reported; the page's ``KioskFrame`` types it into the page as a real key event
/// (``PageKeyboard``). No key is ever logged: a password field's keys pass here too.
@WebKitActor
final class TouchKeyboard {
    /// A key the visitor pressed: the page gets it as a real key press.
    typealias Key = PageKeyboard.Key

    /// The keyboard, to put under the page (hidden until ``show()``).
    let box: UnsafeMutablePointer<GtkWidget>
    private var letterButtons: [UnsafeMutablePointer<GtkWidget>] = []
    private var keys: [UnsafeMutablePointer<GtkWidget>: Key] = [:]
    private var shiftButton: UnsafeMutablePointer<GtkWidget>?
    private var connections: [SignalConnection] = []
    private var shifted = false
    private let onKey: @WebKitActor (Key) -> Void

    /// The rows of letter keys, unshifted.
    private static let rows = ["1234567890", "qwertyuiop", "asdfghjkl@", "zxcvbnm.-_"]

    /// A hidden keyboard in `text`'s language; `onKey` hears each key.
    init(text: KioskText, onKey: @escaping @WebKitActor (Key) -> Void) {
        self.onKey = onKey
        box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        KioskStyle.addClass("kiosk-keyboard", to: box)
        for (index, row) in Self.rows.enumerated() {
            let line = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
            gtk_widget_set_halign(line, GTK_ALIGN_CENTER)
            if index == 3 { shiftButton = add("⇧", nil, to: line, name: "Shift") }
            for character in row { letterButtons.append(add(String(character), .character(character), to: line)) }
            switch index {
            case 0: _ = add("⌫", .backspace, to: line, width: 96, name: "Backspace")
            case 1: _ = add("⇥", .tab, to: line, width: 96, name: "Tab")
            case 2: _ = add("⏎", .enter, to: line, width: 96, name: "Enter")
            default: break
            }
            gtk_box_pack_start(cwk_box(box), line, 0, 0, 0)
        }
        let bottom = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_halign(bottom, GTK_ALIGN_CENTER)
        _ = add(text.space, .character(" "), to: bottom, width: 480)
        gtk_box_pack_start(cwk_box(box), bottom, 0, 0, 0)
        gtk_widget_show_all(box)
        gtk_widget_hide(box)
        gtk_widget_set_no_show_all(box, 1)  // the window's show_all leaves it hidden
    }

    /// A key button labelled `label` in `line` that reports `key` (`nil`: the shift key); `name` is
    /// what a screen reader says for a symbol label.
    private func add(_ label: String, _ key: Key?, to line: UnsafeMutablePointer<GtkWidget>, width: gint = 64,
                     name: String? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_with_label(label)!
        if let name { AccessibleName.set(button, name) }
        gtk_widget_set_size_request(button, width, 56)
        gtk_widget_set_can_focus(button, 0)  // the page's field keeps the focus
        gtk_box_pack_start(cwk_box(line), button, 0, 0, 0)
        keys[button] = key
        connections.append(SignalConnection(button, .clicked, target: self, handler: Self.clicked))
        return button
    }

    private nonisolated static let clicked: CWKClickedHandler = { button, data in
        let keyboard = WeakTarget<TouchKeyboard>.from(data)
        // The button's address, used on this (the GTK) thread only.
        nonisolated(unsafe) let widget = UnsafeMutableRawPointer(button).map { $0.assumingMemoryBound(to: GtkWidget.self) }
        WebKitActor.assumeIsolated { if let widget { keyboard?.pressed(widget) } }
    }

    private func pressed(_ button: UnsafeMutablePointer<GtkWidget>) {
        guard let key = keys[button] else { return setShift(!shifted) }
        if case .character(let character) = key, shifted {
            onKey(.character(Character(character.uppercased())))
            setShift(false)
        } else {
            onKey(key)
        }
    }

    private func setShift(_ on: Bool) {
        shifted = on
        for button in letterButtons {
            let label = String(cString: gtk_button_get_label(cwk_button(button)))
            gtk_button_set_label(cwk_button(button), on ? label.uppercased() : label.lowercased())
        }
    }

    /// The button that types `key` (tests press it like a person).
    func button(for key: Key) -> UnsafeMutablePointer<GtkWidget>? {
        keys.first { $0.value == key }?.key
    }

    /// Whether the keyboard is showing.
    var isShowing: Bool { gtk_widget_get_visible(box) != 0 }

    /// Shows or hides the keyboard.
    func show(_ shown: Bool) {
        if shown { gtk_widget_show(box) } else { gtk_widget_hide(box) }
    }
}
