internal import CWebKitGTK

/// A user script that talks to the engine: its script message handler registered, then the
/// script added to every top-frame document at its start, in one world (the page's own when
/// `world` is nil). The form-action watch and the kiosk's focus watch are each one (the passkey channel, whose
/// handler answers, installs its own: `PasskeyChannel`).
@WebKitActor
enum PageScriptChannel {
    /// Installs `source`, posting to `channel`, in `view`'s pages. `connect` connects the
    /// handler's signal on the content manager; it runs before the handler is registered, so no
    /// message can come first (WebKit's advice), and what it returns keeps the handler connected.
    static func install(_ source: String, posting channel: String, world: String?, in view: UnsafeMutablePointer<WebKitWebView>,
                        connect: (UnsafeMutablePointer<WebKitUserContentManager>) -> SignalConnection) -> SignalConnection {
        let manager = webkit_web_view_get_user_content_manager(view)!
        let connection = connect(manager)
        let script: OpaquePointer
        if let world {
            webkit_user_content_manager_register_script_message_handler_in_world(manager, channel, world)
            script = webkit_user_script_new_for_world(source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                                      WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world, nil, nil)!
        } else {
            webkit_user_content_manager_register_script_message_handler(manager, channel)
            script = webkit_user_script_new(source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)!
        }
        webkit_user_content_manager_add_script(manager, script)
        webkit_user_script_unref(script)  // the manager holds its own
        return connection
    }
}
