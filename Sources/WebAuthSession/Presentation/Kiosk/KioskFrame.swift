import Foundation
internal import CWebKitGTK

/// What a kiosk window shows around its page (``KioskSettings``): the kiosk bar above it, the
/// touch keyboard under it while a text field has focus, and the idle warning over it. It lays them out, applies the kiosk's style and the page's text
/// size, and tells its ``KioskPresentation`` what the visitor asked for.
@WebKitActor
final class KioskFrame {
    /// What the visitor did on the frame.
    enum Request {
        /// Start over ("Start over" on the bar): the session ends as Escape ends it.
        case startOver
        /// The visitor touched or clicked the frame (the bar's text size, the idle warning).
        case input
        /// The touch keyboard appeared (a text field took focus) or went away.
        case keyboardShown(Bool)
    }

    /// The bar, if the appearance shows one.
    private(set) var bar: KioskBar?
    /// The idle warning, if the appearance asks for one, and how long before the reset it shows.
    private(set) var idleWarning: KioskIdleWarning?
    /// The touch keyboard, if the appearance asks for one, and what shows and hides it.
    private(set) var keyboard: TouchKeyboard?
    private var focusWatch: PageFocusWatch?
    private var pageKeyboard: PageKeyboard?
    let idleWarningLead: Duration?
    private let view: UnsafeMutablePointer<WebKitWebView>
    /// Hears what the visitor asked for (set by the frame's ``KioskPresentation``).
    var onRequest: @WebKitActor (Request) -> Void = { _ in }

    /// The text sizes A− and A+ go between, a tenth at a time.
    static let zoomRange = 0.5...3.0

    /// Lays `view` out in `window` with what `appearance` asks for. `view` must outlive the frame.
    init(window: UnsafeMutablePointer<GtkWidget>, view: UnsafeMutablePointer<WebKitWebView>, appearance: KioskSettings,
         style: KioskStyle, text: KioskText) {
        (self.view, idleWarningLead) = (view, appearance.idleWarning)
        let overlay = gtk_overlay_new()!
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_container_add(cwk_container(overlay), column)
        if appearance.showsBar {
            let bar = KioskBar(text: text, style: style) { [weak self] in self?.pressed($0) }
            gtk_box_pack_start(cwk_box(column), bar.box, 0, 0, 0)
            self.bar = bar
        }
        gtk_box_pack_start(cwk_box(column), cwk_web_view_widget(view), 1, 1, 0)
        if appearance.touchKeyboard {
            let keyboard = TouchKeyboard(text: text) { [weak self] key in
                self?.onRequest(.input)
                self?.pageKeyboard?.press(key)
            }
            gtk_box_pack_start(cwk_box(column), keyboard.box, 0, 0, 0)
            self.keyboard = keyboard
            pageKeyboard = PageKeyboard(view: view)
            focusWatch = PageFocusWatch(view: view) { [weak self] in self?.textFieldFocused($0) }
        }
        if appearance.idleWarning != nil {
            let warning = KioskIdleWarning(text: text) { [weak self] in self?.onRequest(.input) }
            gtk_overlay_add_overlay(cwk_overlay(overlay), warning.layer)
            idleWarning = warning
        }
        gtk_container_add(cwk_container(window), overlay)
        style.apply(to: window)
        setZoom(appearance.zoom)
    }

    private func pressed(_ press: KioskBar.Press) {
        switch press {
        case .startOver:
            onRequest(.startOver)
        case .zoom(let steps):
            setZoom(((zoom * 10).rounded() + Double(steps)) / 10)
            onRequest(.input)
        }
    }

    /// A new document replaced the page: its fields are gone, and with them the focus (a page that
    /// focuses a field itself says so again), so the touch keyboard goes away.
    func pageCommitted() {
        textFieldFocused(false)
    }

    private func textFieldFocused(_ focused: Bool) {
        guard let keyboard, keyboard.isShowing != focused else { return }
        keyboard.show(focused)
        onRequest(.keyboardShown(focused))
    }

    private func setZoom(_ level: Double) {
        webkit_web_view_set_zoom_level(view, min(max(level, Self.zoomRange.lowerBound), Self.zoomRange.upperBound))
    }

    /// The page's text size now (WebKit's zoom level).
    var zoom: Double { webkit_web_view_get_zoom_level(view) }

    /// Shows the committed page's host and connection on the bar.
    func show(host: String, tls: TLSState) {
        bar?.origin.show(host: host, tls: tls)
    }

    /// Shows load progress on the bar.
    func show(progress: Double) {
        bar?.show(progress: progress)
    }
}

extension KioskFrame {
    /// When the idle warning next changes for a reset at `deadline`: when it appears, then at
    /// each second of its countdown; `nil` with no warning, no deadline, or the deadline passed.
    func nextIdleWarningChange(resetAt deadline: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard idleWarning != nil, let lead = idleWarningLead, let deadline, now < deadline else { return nil }
        let appears = deadline - lead
        guard now >= appears else { return appears }
        return deadline - .seconds(Self.secondsLeft(until: deadline, now: now) - 1)
    }

    /// Shows the idle warning's countdown to a reset at `deadline` once it is due (hides it before);
    /// returns the seconds shown when it has just appeared.
    func updateIdleWarning(resetAt deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Int? {
        guard let idleWarning, let lead = idleWarningLead else { return nil }
        guard now >= deadline - lead else {
            idleWarning.hide()
            return nil
        }
        let appearing = idleWarning.secondsLeft == nil
        let seconds = max(1, Self.secondsLeft(until: deadline, now: now))
        idleWarning.show(secondsLeft: seconds)
        return appearing ? seconds : nil
    }

    /// Hides the idle warning (the visitor is there); returns whether it was showing.
    func dismissIdleWarning() -> Bool {
        guard let idleWarning, idleWarning.secondsLeft != nil else { return false }
        idleWarning.hide()
        return true
    }

    /// Whole seconds from `now` to `deadline`, rounded up.
    private static func secondsLeft(until deadline: ContinuousClock.Instant, now: ContinuousClock.Instant) -> Int {
        let (seconds, attoseconds) = (deadline - now).components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
