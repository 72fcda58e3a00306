internal import CWebKitGTK

/// Installs a ``LoginRecorder``'s page script (``RecorderScript``) in a view: in the engine's
/// isolated world of the top frame, with its message handler in that world only, so the page's
/// own scripts can neither post to it nor see what it hears.
@WebKitActor
enum RecorderChannel {
    /// Installs the recorder in `view`'s pages; `recorder` hears them for as long as the returned connection is kept.
    static func install(in view: UnsafeMutablePointer<WebKitWebView>, reportingTo recorder: LoginRecorder) -> SignalConnection {
        let channel = RecorderScript.channel
        return PageScriptChannel.install(RecorderScript.source, posting: channel, world: JavaScriptBridge.helperWorld, in: view) {
            SignalConnection($0, .scriptMessageReceived(channel), target: recorder, handler: received)
        }
    }

    private nonisolated static let received: CWKScriptMessageHandler = { _, result, data in
        guard let value = result.flatMap({ webkit_javascript_result_get_js_value($0) }), jsc_value_is_string(value) != 0,
              let text = jsc_value_to_string(value) else { return }
        defer { g_free(text) }
        WeakTarget<LoginRecorder>.from(data)?.receive(String(cString: text))
    }
}
