internal import CWebKitGTK

/// The overlay that warns a kiosk visitor before the idle reset: "Still there? Starting over
/// in 15 s" over a dimmed page. It covers the page, so a touch or click anywhere lands on it;
/// each one is reported (it counts as the visitor's input, which dismisses it).
@WebKitActor
final class KioskIdleWarning {
    /// The overlay, to lay over the page (hidden until ``show(secondsLeft:)``).
    let layer: UnsafeMutablePointer<GtkWidget>
    private let countdown: UnsafeMutablePointer<GtkWidget>
    private let text: KioskText
    private var connections: [SignalConnection] = []
    private let onTouch: @WebKitActor () -> Void
    /// The seconds the warning shows now; `nil` while it is hidden.
    private(set) var secondsLeft: Int?

    /// A hidden warning in `text`'s language; `onTouch` hears each touch or click on it.
    init(text: KioskText, onTouch: @escaping @WebKitActor () -> Void) {
        self.text = text
        self.onTouch = onTouch
        layer = gtk_event_box_new()!
        KioskStyle.addClass("kiosk-warning", to: layer)
        let card = gtk_box_new(GTK_ORIENTATION_VERTICAL, 16)!
        KioskStyle.addClass("kiosk-warning-card", to: card)
        gtk_widget_set_halign(card, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(card, GTK_ALIGN_CENTER)
        countdown = gtk_label_new("")!
        let hint = gtk_label_new(text.touchToContinue)!
        KioskStyle.addClass("kiosk-hint", to: hint)
        gtk_box_pack_start(cwk_box(card), countdown, 0, 0, 0)
        gtk_box_pack_start(cwk_box(card), hint, 0, 0, 0)
        gtk_container_add(cwk_container(layer), card)
        gtk_widget_show_all(card)
        gtk_widget_set_no_show_all(layer, 1)
        connections = ["button-press-event", "touch-event"].map {
            SignalConnection(layer, .input($0), target: self, handler: Self.touched)
        }
    }

    private nonisolated static let touched: CWKInputEventHandler = { _, _, data in
        let warning = WeakTarget<KioskIdleWarning>.from(data)
        WebKitActor.assumeIsolated { warning?.onTouch() }
        return 1  // the page under the overlay does not get it
    }

    /// Shows the warning, or updates its countdown.
    func show(secondsLeft: Int) {
        self.secondsLeft = secondsLeft
        gtk_label_set_text(cwk_label(countdown), text.stillThere(seconds: secondsLeft))
        gtk_widget_show(layer)
    }

    /// Hides the warning; idempotent.
    func hide() {
        secondsLeft = nil
        gtk_widget_hide(layer)
    }
}
