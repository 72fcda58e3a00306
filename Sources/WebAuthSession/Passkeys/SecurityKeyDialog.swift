internal import CWebKitGTK

/// What a person sees while a page's request waits on their security key: a small
/// window over the sign-in window (the popup or the kiosk), "Touch your security key" and
/// Cancel; when the key asks for its PIN, a PIN field, the tries left, Continue and Cancel.
/// Cancel ends the request (the page gets `NotAllowedError`). The PIN is read from the field
/// once, when Continue is pressed, and the field is emptied at once; it is never shown or logged.
@WebKitActor
final class SecurityKeyDialog {
    /// The dialog's window.
    let window: UnsafeMutablePointer<GtkWidget>
    let message: UnsafeMutablePointer<GtkWidget>
    let detail: UnsafeMutablePointer<GtkWidget>
    let pinField: UnsafeMutablePointer<GtkWidget>
    let continueButton: UnsafeMutablePointer<GtkWidget>
    let cancelButton: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let relyingParty: String
    private var connections: [SignalConnection] = []
    private var pinWaiter: CheckedContinuation<String?, Never>?
    private let onCancel: @WebKitActor () -> Void
    private let onChange: @WebKitActor (SecurityKeyDialogState) -> Void

    /// Shows "Touch your security key" for a request of `relyingParty` over `parent`; `onCancel`
    /// hears Cancel, `onChange` each stage it shows.
    init(over parent: UnsafeMutablePointer<GtkWidget>, relyingParty: String, onCancel: @escaping @WebKitActor () -> Void,
         onChange: @escaping @WebKitActor (SecurityKeyDialogState) -> Void) {
        self.relyingParty = relyingParty
        self.onCancel = onCancel
        self.onChange = onChange
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        gtk_window_set_title(cwk_window(window), "Security key")
        gtk_window_set_transient_for(cwk_window(window), cwk_window(parent))
        gtk_window_set_modal(cwk_window(window), 1)
        gtk_window_set_type_hint(cwk_window(window), GDK_WINDOW_TYPE_HINT_DIALOG)
        gtk_window_set_position(cwk_window(window), GTK_WIN_POS_CENTER_ON_PARENT)
        gtk_window_set_keep_above(cwk_window(window), 1)
        gtk_window_set_resizable(cwk_window(window), 0)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_container_set_border_width(cwk_container(box), 24)
        spinner = gtk_spinner_new()!
        message = gtk_label_new("")!
        detail = gtk_label_new("")!
        gtk_label_set_line_wrap(cwk_label(detail), 1)
        pinField = gtk_entry_new()!
        gtk_entry_set_visibility(cwk_entry(pinField), 0)
        gtk_entry_set_input_purpose(cwk_entry(pinField), GTK_INPUT_PURPOSE_PIN)
        gtk_entry_set_activates_default(cwk_entry(pinField), 1)
        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_halign(buttons, GTK_ALIGN_END)
        cancelButton = gtk_button_new_with_label("Cancel")!
        continueButton = gtk_button_new_with_label("Continue")!
        gtk_widget_set_can_default(continueButton, 1)
        for (child, expand) in [(spinner, false), (message, false), (detail, false), (pinField, false)] {
            gtk_box_pack_start(cwk_box(box), child, expand ? 1 : 0, expand ? 1 : 0, 0)
        }
        gtk_box_pack_start(cwk_box(buttons), cancelButton, 0, 0, 0)
        gtk_box_pack_start(cwk_box(buttons), continueButton, 0, 0, 0)
        gtk_box_pack_end(cwk_box(box), buttons, 0, 0, 0)
        gtk_container_add(cwk_container(window), box)
        connections = [
            SignalConnection(cancelButton, .clicked, target: self, handler: Self.cancelClicked),
            SignalConnection(continueButton, .clicked, target: self, handler: Self.continueClicked),
            SignalConnection(window, .deleteEvent, target: self, handler: Self.closeRequested),
        ]
        gtk_widget_show_all(window)
        showTouch()
    }

    /// The touch stage: the key blinks, the person touches it.
    func showTouch() {
        gtk_label_set_text(cwk_label(message), "Touch your security key")
        gtk_label_set_text(cwk_label(detail), "to sign in to \(relyingParty)")
        gtk_spinner_start(cwk_spinner(spinner))
        gtk_widget_show(spinner)
        gtk_widget_hide(pinField)
        gtk_widget_hide(continueButton)
        onChange(.touch(relyingParty: relyingParty))
    }

    /// The PIN stage, until Continue (the PIN typed) or Cancel (nil). `triesLeft`: after a wrong PIN, as the key says.
    func askForPIN(triesLeft: Int?) async -> String? {
        pinWaiter?.resume(returning: nil)
        gtk_label_set_text(cwk_label(message), "Enter your security key's PIN")
        gtk_label_set_text(cwk_label(detail), triesLeft.map { "That PIN was not right: \($0) \($0 == 1 ? "try" : "tries") left." } ?? "")
        gtk_spinner_stop(cwk_spinner(spinner))
        gtk_widget_hide(spinner)
        gtk_widget_show(pinField)
        gtk_widget_show(continueButton)
        gtk_window_set_default(cwk_window(window), continueButton)
        gtk_widget_grab_focus(pinField)
        onChange(.pin(triesLeft: triesLeft))
        let pin = await withCheckedContinuation { pinWaiter = $0 }
        showTouch()
        return pin
    }

    /// Whether it is asking for the PIN now.
    var isAskingForPIN: Bool { pinWaiter != nil }

    /// Closes the dialog; a PIN still asked for is cancelled.
    func close() {
        guard !connections.isEmpty else { return }
        pinWaiter?.resume(returning: nil)
        pinWaiter = nil
        connections.forEach { $0.disconnect() }
        connections = []
        gtk_widget_destroy(window)
        onChange(.closed)
    }

    private func cancel() {
        if let waiter = pinWaiter {
            pinWaiter = nil
            waiter.resume(returning: nil)
        }
        onCancel()
    }

    private func submitPIN() {
        guard let waiter = pinWaiter else { return }
        pinWaiter = nil
        let pin = gtk_entry_get_text(cwk_entry(pinField)).map { String(cString: $0) } ?? ""
        gtk_entry_set_text(cwk_entry(pinField), "")
        waiter.resume(returning: pin)
    }

    private nonisolated static let cancelClicked: CWKClickedHandler = { _, data in
        let dialog = WeakTarget<SecurityKeyDialog>.from(data)
        WebKitActor.assumeIsolated { dialog?.cancel() }
    }

    private nonisolated static let continueClicked: CWKClickedHandler = { _, data in
        let dialog = WeakTarget<SecurityKeyDialog>.from(data)
        WebKitActor.assumeIsolated { dialog?.submitPIN() }
    }

    private nonisolated static let closeRequested: CWKDeleteEventHandler = { _, _, data in
        let dialog = WeakTarget<SecurityKeyDialog>.from(data)
        WebKitActor.assumeIsolated { dialog?.cancel() }
        return 1  // the request's end closes it
    }
}
