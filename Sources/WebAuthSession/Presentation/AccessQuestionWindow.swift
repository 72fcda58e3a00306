internal import CWebKitGTK

/// The window of an ``AccessQuestion``: its text, Deny (focused) and Allow. It lives until the
/// person answers or closes it, then destroys itself.
@WebKitActor
final class AccessQuestionWindow {
    private let window: UnsafeMutablePointer<GtkWidget>
    private var connections: [SignalConnection] = []
    /// Another program's window this one is transient for, kept while it is.
    private var parentReference: GObjectReference<OpaquePointer>?
    private var waiting: CheckedContinuation<Bool, Never>?
    /// The windows waiting for an answer (each keeps itself alive until then).
    private static var open: [ObjectIdentifier: AccessQuestionWindow] = [:]

    /// Builds the window for `question`, not shown yet.
    /// - Throws: ``WebAuthenticationError/invalidOption(_:)-swift.enum.case`` for a parent window that cannot be used.
    init(_ question: AccessQuestion) throws(WebAuthenticationError) {
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        gtk_window_set_title(cwk_window(window), question.title)
        gtk_window_set_resizable(cwk_window(window), 0)
        gtk_window_set_keep_above(cwk_window(window), 1)
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_container_set_border_width(cwk_container(box), 18)
        let label = gtk_label_new(question.text)!
        gtk_label_set_line_wrap(cwk_label(label), 1)
        gtk_label_set_max_width_chars(cwk_label(label), 50)
        gtk_box_pack_start(cwk_box(box), label, 1, 1, 0)
        let buttons = gtk_button_box_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_button_box_set_layout(cwk_button_box(buttons), GTK_BUTTONBOX_END)
        gtk_box_set_spacing(cwk_box(buttons), 6)
        let deny = gtk_button_new_with_mnemonic(question.denyLabel)!
        let allow = gtk_button_new_with_mnemonic(question.allowLabel)!
        gtk_container_add(cwk_container(buttons), deny)
        gtk_container_add(cwk_container(buttons), allow)
        gtk_box_pack_start(cwk_box(box), buttons, 0, 0, 0)
        gtk_container_add(cwk_container(window), box)
        if let parent = question.parentWindow {
            do { parentReference = try parent.makeTransient(window) } catch {
                gtk_widget_destroy(window)
                throw error
            }
        }
        connections = [
            SignalConnection(allow, .clicked, target: self, handler: Self.allowClicked),
            SignalConnection(deny, .clicked, target: self, handler: Self.denyClicked),
            SignalConnection(window, .deleteEvent, target: self, handler: Self.closed),
        ]
        gtk_widget_show_all(window)
        gtk_widget_grab_focus(deny)
    }

    /// Waits for the person's answer; the window is gone when this returns.
    func answer() async -> Bool {
        Self.open[ObjectIdentifier(self)] = self
        return await withCheckedContinuation { waiting = $0 }
    }

    private func finish(_ allowed: Bool) {
        guard let waiting else { return }
        self.waiting = nil
        connections = []
        gtk_widget_destroy(window)
        Self.open[ObjectIdentifier(self)] = nil
        waiting.resume(returning: allowed)
    }

    private static let allowClicked: CWKClickedHandler = { _, data in
        let question = WeakTarget<AccessQuestionWindow>.from(data)
        WebKitActor.assumeIsolated { question?.finish(true) }
    }

    private static let denyClicked: CWKClickedHandler = { _, data in
        let question = WeakTarget<AccessQuestionWindow>.from(data)
        WebKitActor.assumeIsolated { question?.finish(false) }
    }

    private static let closed: CWKDeleteEventHandler = { _, _, data in
        let question = WeakTarget<AccessQuestionWindow>.from(data)
        WebKitActor.assumeIsolated { question?.finish(false) }
        return 1
    }
}
