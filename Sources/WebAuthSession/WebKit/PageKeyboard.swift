internal import CWebKitGTK

/// Trusted key input: real GDK key events for a page's web view, delivered the way a keyboard's
/// are (GTK's main event path to the view, which takes the focus first), so the page sees
/// keydown, keypress, input and keyup events with `isTrusted === true` in its focused element.
/// For pages that ignore script-made events, and for an on-screen keyboard.
///
/// Works on X11 and under Xvfb, in the popup and headless (the offscreen window). On a Wayland
/// display without a seat GDK has no keyboard device, and the page may not see the keys.
/// WebKit hands keys to the page asynchronously: a page shows the effect of ``type(_:)`` a
/// little after it returns (wait for it in the page, e.g. for the keyup of the last key).
@WebKitActor
final class PageKeyboard {
    /// A key to press.
    enum Key: Sendable, Hashable {
        /// Return.
        case enter
        /// Tab (the page moves the focus on).
        case tab
        /// Backspace (deletes the character before the caret).
        case backspace
        /// The key that types `Character` (`"\n"` is Return, `"\t"` Tab); a character of several
        /// Unicode scalars is typed as one key per scalar.
        case character(Character)

        /// GDK key values, one per key to press.
        var keyvals: [guint] {
            switch self {
            case .enter, .character("\n"), .character("\r\n"): [guint(GDK_KEY_Return)]
            case .tab, .character("\t"): [guint(GDK_KEY_Tab)]
            case .backspace: [guint(GDK_KEY_BackSpace)]
            case .character(let character): character.unicodeScalars.map { gdk_unicode_to_keyval($0.value) }
            }
        }
    }

    private let view: GObjectReference<UnsafeMutablePointer<WebKitWebView>>

    /// A keyboard for `view` (kept alive as long as this is).
    init(view: UnsafeMutablePointer<WebKitWebView>) {
        self.view = GObjectReference(retaining: view)
    }

    /// Types `text`: a press and a release of each character's key, in order.
    /// Returns false if the view has no window yet (it was never shown): nothing was sent.
    @discardableResult
    func type(_ text: String) -> Bool {
        text.allSatisfy { press(.character($0)) }
    }

    /// Presses and releases `key` in the view, which takes the keyboard focus first.
    /// Returns false if the view has no window yet (it was never shown): nothing was sent.
    @discardableResult
    func press(_ key: Key) -> Bool {
        view.withPointer { view in
            let widget = cwk_web_view_widget(view)
            if gtk_widget_has_focus(widget) == 0 { gtk_widget_grab_focus(widget) }
            return key.keyvals.allSatisfy { keyval in
                cwk_send_key_event(widget, 1, keyval) != 0 && cwk_send_key_event(widget, 0, keyval) != 0
            }
        }
    }
}
