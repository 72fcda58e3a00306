internal import CWebKitGTK

/// Tells the kiosk when a text field of the page takes or loses focus (to show or hide its
/// touch keyboard): a user script in the engine's isolated world (it shares the page's DOM, not
/// its globals) listens for `focusin` and `focusout` and posts whether the focus is now in an
/// editable element. It posts nothing else: no field's name or value.
@WebKitActor
final class PageFocusWatch {
    /// The script message channel, in ``JavaScriptBridge/helperWorld`` only.
    static let channel = "webauthKioskFocus"

    private var connection: SignalConnection?
    private let onChange: @WebKitActor (Bool) -> Void

    /// Watches `view`'s pages from the next load on; `onChange` hears whether a text field has focus.
    init(view: UnsafeMutablePointer<WebKitWebView>, onChange: @escaping @WebKitActor (Bool) -> Void) {
        self.onChange = onChange
        connection = PageScriptChannel.install(Self.source, posting: Self.channel, world: JavaScriptBridge.helperWorld, in: view) {
            SignalConnection($0, .scriptMessageReceived(Self.channel), target: self, handler: Self.received)
        }
    }

    private nonisolated static let received: CWKScriptMessageHandler = { _, result, data in
        let watch = WeakTarget<PageFocusWatch>.from(data)
        let focused = result.flatMap { webkit_javascript_result_get_js_value($0) }.map { jsc_value_to_boolean($0) != 0 } ?? false
        WebKitActor.assumeIsolated { watch?.onChange(focused) }
    }

    /// Whether an element takes text: a text-like `<input>`, a `<textarea>`, or editable content.
    private static let source = """
        (() => {
          const kinds = ['button', 'checkbox', 'color', 'file', 'hidden', 'image', 'radio', 'range', 'reset', 'submit'];
          const takesText = (element) => !!element && (element.isContentEditable || element.tagName === 'TEXTAREA'
            || (element.tagName === 'INPUT' && !kinds.includes((element.type || '').toLowerCase())));
          const post = (focused) => window.webkit.messageHandlers.\(channel).postMessage(focused);
          document.addEventListener('focusin', (event) => post(takesText(event.target)), true);
          document.addEventListener('focusout', (event) => { if (!takesText(event.relatedTarget)) post(false); }, true);
          // A field focused before this listener ran (autofocus) says so once the page has loaded.
          window.addEventListener('load', () => { if (takesText(document.activeElement)) post(true); });
        })();
        """
}
