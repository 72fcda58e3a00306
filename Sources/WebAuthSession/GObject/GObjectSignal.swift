internal import CWebKitGTK

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKDecidePolicyHandler {
    /// `WebKitWebView::decide-policy`.
    static var decidePolicy: Self { Self { cwk_connect_decide_policy($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKLoadChangedHandler {
    /// `WebKitWebView::load-changed`.
    static var loadChanged: Self { Self { cwk_connect_load_changed($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKLoadFailedHandler {
    /// `WebKitWebView::load-failed`.
    static var loadFailed: Self { Self { cwk_connect_load_failed($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKTLSErrorHandler {
    /// `WebKitWebView::load-failed-with-tls-errors`.
    static var loadFailedWithTLSErrors: Self { Self { cwk_connect_load_failed_with_tls_errors($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKAuthenticateHandler {
    /// `WebKitWebView::authenticate` (a server or a proxy asks for credentials).
    static var authenticate: Self { Self { cwk_connect_authenticate($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKResourceLoadStartedHandler {
    /// `WebKitWebView::resource-load-started` (each request of the page as it starts).
    static var resourceLoadStarted: Self { Self { cwk_connect_resource_load_started($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebResource>, Handler == CWKSentRequestHandler {
    /// `WebKitWebResource::sent-request` (the resource's request went out, first or after a redirect).
    static var sentRequest: Self { Self { cwk_connect_sent_request($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKProcessTerminatedHandler {
    /// `WebKitWebView::web-process-terminated`.
    static var webProcessTerminated: Self { Self { cwk_connect_web_process_terminated($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKCreateHandler {
    /// `WebKitWebView::create` (`window.open`, `target=_blank`).
    static var create: Self { Self { cwk_connect_create($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKViewCloseHandler {
    /// `WebKitWebView::close` (the page called `window.close()`).
    static var close: Self { Self { cwk_connect_view_close($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKContextMenuHandler {
    /// `WebKitWebView::context-menu`.
    static var contextMenu: Self { Self { cwk_connect_context_menu($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKFileChooserHandler {
    /// `WebKitWebView::run-file-chooser`.
    static var runFileChooser: Self { Self { cwk_connect_run_file_chooser($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebView>, Handler == CWKPrintHandler {
    /// `WebKitWebView::print` (`window.print()`).
    static var print: Self { Self { cwk_connect_print($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitWebContext>, Handler == CWKDownloadStartedHandler {
    /// `WebKitWebContext::download-started`.
    static var downloadStarted: Self { Self { cwk_connect_download_started($0, $1, $2, $3) } }
}

extension GObjectSignal where Handler == CWKNotifyHandler {
    /// `GObject::notify::PROPERTY`: the property changed.
    static func notify(_ property: String) -> Self {
        Self { cwk_connect_notify($0.objectAddress, "notify::\(property)", $1, $2, $3) }
    }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<GtkWidget>, Handler == CWKDeleteEventHandler {
    /// `GtkWidget::delete-event` (the person closes the window).
    static var deleteEvent: Self { Self { cwk_connect_delete_event($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<GtkWidget>, Handler == CWKEnableDebuggingHandler {
    /// `GtkWindow::enable-debugging` (the keybinding signal of Ctrl+Shift+I and Ctrl+Shift+D: the GTK Inspector).
    static var enableDebugging: Self { Self { cwk_connect_enable_debugging($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<GtkWidget>, Handler == CWKKeyPressHandler {
    /// `GtkWidget::key-press-event`.
    static var keyPress: Self { Self { cwk_connect_key_press($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<GtkWidget>, Handler == CWKDrawHandler {
    /// `GtkWidget::draw`: GTK paints the widget; a handler that returns true paints in its place.
    static var draw: Self { Self { cwk_connect_draw($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<GtkWidget>, Handler == CWKInputEventHandler {
    /// A `GtkWidget` input signal with a `GdkEvent` (`button-press-event`, `motion-notify-event`...).
    static func input(_ name: String) -> Self { Self { cwk_connect_input_event($0, name, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<GtkWidget>, Handler == CWKClickedHandler {
    /// `GtkButton::clicked`.
    static var clicked: Self { Self { cwk_connect_clicked($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<GtkWidget>, Handler == CWKDestroyHandler {
    /// `GtkWidget::destroy`: GTK is destroying the widget (its parent went, or someone destroyed it).
    static var destroy: Self { Self { cwk_connect_destroy($0, $1, $2, $3) } }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitUserContentManager>, Handler == CWKScriptMessageHandler {
    /// `WebKitUserContentManager::script-message-received::NAME`: a page posted to the message handler `name`.
    static func scriptMessageReceived(_ name: String) -> Self {
        Self { cwk_connect_script_message_received($0, name, $1, $2, $3) }
    }
}

extension GObjectSignal where Instance == UnsafeMutablePointer<WebKitUserContentManager>, Handler == CWKScriptMessageWithReplyHandler {
    /// `WebKitUserContentManager::script-message-with-reply-received::NAME`: a page posted to the
    /// message handler `name` and waits for the reply (see ``ScriptMessageReply``).
    static func scriptMessageWithReplyReceived(_ name: String) -> Self {
        Self { cwk_connect_script_message_with_reply_received($0, name, $1, $2, $3) }
    }
}
