import Foundation
import OpenIDConnect
internal import CWebKitGTK

/// Installs the page's WebAuthn in a view: ``PasskeyPageScript`` in the page world of
/// every frame, ``PasskeyBridgeScript`` in the engine's isolated world of the top frame, and the
/// bridge's message handler (with reply, in that world only), whose messages go to the page.
@WebKitActor
enum PasskeyChannel {
    /// Installs both scripts and the handler in `view`; `page` hears the requests for as long as
    /// the returned connection is kept.
    static func install(in view: UnsafeMutablePointer<WebKitWebView>, reportingTo page: SignInPage) -> SignalConnection {
        let manager = webkit_web_view_get_user_content_manager(view)!
        let channel = PasskeyBridgeScript.channel
        let connection = SignalConnection(manager, .scriptMessageWithReplyReceived(channel), target: page, handler: received)
        webkit_user_content_manager_register_script_message_handler_with_reply(manager, channel, JavaScriptBridge.helperWorld)
        let pageScript = webkit_user_script_new(PasskeyPageScript.source, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                                WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)!
        let bridge = webkit_user_script_new_for_world(PasskeyBridgeScript.source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                                      WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, JavaScriptBridge.helperWorld, nil, nil)!
        for script in [pageScript, bridge] {
            webkit_user_content_manager_add_script(manager, script)
            webkit_user_script_unref(script)  // the manager holds its own
        }
        return connection
    }

    /// A message from the bridge: its text and the reply the page waits on, handed to the page.
    private nonisolated static let received: CWKScriptMessageWithReplyHandler = { _, value, reply, data in
        guard let value, let reply else { return 0 }
        let page = WeakTarget<SignInPage>.from(data)
        let text = jsc_value_is_string(value) != 0 ? jsc_value_to_string(value) : nil
        defer { g_free(text) }
        let message = text.map { String(cString: $0) }
        let held = ScriptMessageReply(reply, to: value)
        return WebKitActor.assumeIsolated {
            guard let page else { return 0 }
            page.passkeys.received(message, reply: held, on: page)
            return 1
        }
    }
}
