internal import CWebKitGTK

/// The bar above a kiosk's page: the deployment's logo and title, the host the visitor types
/// into and whether its connection is secure, load progress, text size (A− / A+) and a large
/// "Start over" button. It only reports presses; ``KioskFrame`` acts on them.
@WebKitActor
final class KioskBar {
    /// What a press on the bar asks for.
    enum Press {
        /// End the visitor's session and go back to the start screen.
        case startOver
        /// Make the page's text smaller (-1) or larger (+1).
        case zoom(Int)
    }

    /// The bar's box, to put above the page.
    let box: UnsafeMutablePointer<GtkWidget>
    /// The host and lock.
    let origin: PageOrigin
    /// The buttons (tests press them like a person).
    let startOverButton: UnsafeMutablePointer<GtkWidget>
    let smallerButton: UnsafeMutablePointer<GtkWidget>
    let largerButton: UnsafeMutablePointer<GtkWidget>
    private let progressBar: UnsafeMutablePointer<GtkWidget>
    private var connections: [SignalConnection] = []
    private let onPress: @WebKitActor (Press) -> Void

    /// A bar in `text`'s language and `style`'s look; `onPress` hears each press.
    init(text: KioskText, style: KioskStyle, onPress: @escaping @WebKitActor (Press) -> Void) {
        self.onPress = onPress
        box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        KioskStyle.addClass("kiosk-bar", to: box)
        style.packBranding(into: box)
        origin = PageOrigin(notEncrypted: text.notEncrypted, iconSize: GTK_ICON_SIZE_LARGE_TOOLBAR)
        KioskStyle.addClass("kiosk-host", to: origin.label)
        gtk_box_pack_start(cwk_box(box), origin.box, 0, 0, 0)
        progressBar = gtk_progress_bar_new()!
        gtk_widget_set_valign(progressBar, GTK_ALIGN_CENTER)
        gtk_widget_set_no_show_all(progressBar, 1)
        gtk_box_pack_start(cwk_box(box), progressBar, 1, 1, 0)
        startOverButton = gtk_button_new_with_label(text.startOver)!
        largerButton = gtk_button_new_with_label("A+")!
        smallerButton = gtk_button_new_with_label("A−")!
        gtk_widget_set_tooltip_text(largerButton, text.largerText)
        gtk_widget_set_tooltip_text(smallerButton, text.smallerText)
        AccessibleName.set(largerButton, text.largerText)  // not "A+": a screen reader says what it does
        AccessibleName.set(smallerButton, text.smallerText)
        gtk_box_pack_end(cwk_box(box), startOverButton, 0, 0, 0)
        gtk_box_pack_end(cwk_box(box), largerButton, 0, 0, 0)
        gtk_box_pack_end(cwk_box(box), smallerButton, 0, 0, 0)
        connections = [
            SignalConnection(startOverButton, .clicked, target: self, handler: Self.startOverClicked),
            SignalConnection(smallerButton, .clicked, target: self, handler: Self.smallerClicked),
            SignalConnection(largerButton, .clicked, target: self, handler: Self.largerClicked),
        ]
    }

    private nonisolated static let startOverClicked: CWKClickedHandler = { _, data in
        let bar = WeakTarget<KioskBar>.from(data)
        WebKitActor.assumeIsolated { bar?.onPress(.startOver) }
    }

    private nonisolated static let smallerClicked: CWKClickedHandler = { _, data in
        let bar = WeakTarget<KioskBar>.from(data)
        WebKitActor.assumeIsolated { bar?.onPress(.zoom(-1)) }
    }

    private nonisolated static let largerClicked: CWKClickedHandler = { _, data in
        let bar = WeakTarget<KioskBar>.from(data)
        WebKitActor.assumeIsolated { bar?.onPress(.zoom(1)) }
    }

    /// Shows load progress from 0 to 1; hidden once the page has loaded.
    func show(progress: Double) {
        gtk_progress_bar_set_fraction(cwk_progress_bar(progressBar), progress)
        if progress >= 1 { gtk_widget_hide(progressBar) } else { gtk_widget_show(progressBar) }
    }

    /// Whether the progress indicator is showing.
    var isShowingProgress: Bool { gtk_widget_get_visible(progressBar) != 0 }
}
