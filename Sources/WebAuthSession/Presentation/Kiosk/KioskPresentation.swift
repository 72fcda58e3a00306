internal import CWebKitGTK

/// A kiosk's page: full screen, above other windows, in its ``KioskFrame`` (bar, touch keyboard,
/// idle warning). No context menu, file chooser, printing or inspector (each refusal reported);
/// every input restarts the idle timer, and the session ends when it runs out. Closing it
/// clears the clipboard and the primary selection (``KioskLockdown``): the next visitor finds
/// nothing to paste.
@WebKitActor
final class KioskPresentation: PagePresentation {
    let window: UnsafeMutablePointer<GtkWidget>
    /// What the kiosk shows around the page.
    let frame: KioskFrame
    private weak var page: SignInPage?
    /// The tasks that end the session at its idle deadline and show the warning before it.
    private var idleWatch: Task<Void, Never>?
    private var idleWarningWatch: Task<Void, Never>?
    var framesPage: Bool { true }
    var overlay: UnsafeMutablePointer<GtkWidget>? { frame.idleWarning?.layer }

    /// Puts `view` in a new full-screen window framed as `settings` say, in `style`.
    init(view: UnsafeMutablePointer<WebKitWebView>, settings: KioskSettings, style: KioskStyle) {
        window = FullScreenWindow.make(title: "Sign in")
        gtk_window_set_keep_above(cwk_window(window), 1)
        frame = KioskFrame(window: window, view: view, appearance: settings, style: style, text: KioskText(language: settings.language))
        frame.onRequest = { [weak self] in self?.visitorRequested($0) }
    }

    func connect(_ view: UnsafeMutablePointer<WebKitWebView>, to page: SignInPage) -> [SignalConnection] {
        self.page = page
        idleWatch = page.wake(at: { $0.idleDeadline }) { page in page.receive(.idleCheck(at: .now)) }
        idleWarningWatch = page.wake(at: { [weak self] in self?.frame.nextIdleWarningChange(resetAt: $0.idleDeadline, now: .now) }) {
            [weak self] _ in self?.updateIdleWarning()
        }
        let inputs = ["button-press-event", "motion-notify-event", "scroll-event", "touch-event", "key-press-event"].map {
            SignalConnection(cwk_web_view_widget(view), .input($0), target: page, handler: PageSignals.input)
        }
        return inputs + [
            SignalConnection(view, .contextMenu, target: page, handler: PageSignals.refuseContextMenu),
            SignalConnection(view, .runFileChooser, target: page, handler: PageSignals.refuseFileChooser),
            KioskLockdown.keepInspectorShut(window),
            refusingPrint(view, to: page),
        ]
    }

    func pageCommitted(host: String, tls: TLSState) {
        frame.show(host: host, tls: tls)
        frame.pageCommitted()
    }

    func show(progress: Double) { frame.show(progress: progress) }

    /// The visitor is there: a showing idle warning goes away.
    func inputArrived() {
        if frame.dismissIdleWarning() { page?.emit(.idleWarningDismissed) }
    }

    func close() {
        KioskLockdown.clearClipboard()
        idleWatch?.cancel()
        idleWarningWatch?.cancel()
    }

    /// "Start over" ends the session as Escape does; a touch on the frame is the visitor's input.
    private func visitorRequested(_ request: KioskFrame.Request) {
        switch request {
        case .startOver: page?.receive(.windowClosed)
        case .input: page?.receive(.input(at: .now))
        case .keyboardShown(let shown): page?.emit(.touchKeyboard(shown: shown))
        }
    }

    /// Shows, counts down or hides the idle warning for the idle deadline now.
    private func updateIdleWarning() {
        guard let deadline = page?.idleDeadline, let shown = frame.updateIdleWarning(resetAt: deadline, now: .now) else { return }
        page?.emit(.idleWarningShown(secondsLeft: shown))
    }
}
