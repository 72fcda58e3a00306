internal import CWebKitGTK

/// The C signal handlers of a sign-in page. Each runs on the GLib main context's thread,
/// reads what it needs out of WebKit's arguments, and hands plain Swift values to the page
/// found through the ``WeakTarget`` in its user data (`nil` once the page is gone).
enum PageSignals {
    static let decidePolicy: CWKDecidePolicyHandler = { _, decision, type, data in
        guard let decision else { return 0 }
        let event: SignInFlow.Event?
        switch type {
        case WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION:
            let action = webkit_navigation_policy_decision_get_navigation_action(cwk_navigation_decision(decision))
            event = navigationRequest(action, opensNewWindow: type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)
                .map { .navigationRequested($0) }
        case WEBKIT_POLICY_DECISION_TYPE_RESPONSE:
            event = .responseReceived(navigationResponse(cwk_response_decision(decision)))
        default:
            return 0
        }
        let page = WeakTarget<SignInPage>.from(data)
        let policy = WebKitActor.assumeIsolated { event.flatMap { page?.receive($0).policy } }
        if policy == .use { webkit_policy_decision_use(decision) } else { webkit_policy_decision_ignore(decision) }
        return 1
    }

    /// `window.open` does not pass through `decide-policy`; it arrives here. The flow sees it
    /// (the response may be in it) and the window is always refused (NULL).
    static let create: CWKCreateHandler = { _, action, data in
        let page = WeakTarget<SignInPage>.from(data)
        if let request = navigationRequest(action, opensNewWindow: true) {
            WebKitActor.assumeIsolated { _ = page?.receive(.navigationRequested(request)) }
        }
        return nil
    }

    static let loadChanged: CWKLoadChangedHandler = { _, event, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { page?.loadChanged(event) }
    }

    static let loadFailed: CWKLoadFailedHandler = { _, _, uri, error, data in
        let page = WeakTarget<SignInPage>.from(data)
        let failure = LoadFailure(url: uri.map { String(cString: $0) } ?? "", error: error.map { GLibError($0) })
        WebKitActor.assumeIsolated { page?.loadFailed(failure) }
        return 1  // no WebKit error page: the session reports the failure
    }

    static let tlsError: CWKTLSErrorHandler = { _, uri, certificate, errors, data in
        let page = WeakTarget<SignInPage>.from(data)
        let url = uri.map { String(cString: $0) } ?? ""
        let flags = TLSErrors(rawValue: errors.rawValue)
        // Used on this thread only, within the signal emission (assumeIsolated runs synchronously).
        nonisolated(unsafe) let peer = certificate
        WebKitActor.assumeIsolated { page?.tlsFailed(url: url, certificate: peer, errors: flags) }
        return 1
    }

    static let authenticate: CWKAuthenticateHandler = { _, request, data in
        let page = WeakTarget<SignInPage>.from(data)
        guard let request else { return 0 }
        // Used on this thread only, within the signal emission (assumeIsolated runs synchronously).
        nonisolated(unsafe) let asked = request
        return WebKitActor.assumeIsolated { page?.authenticate(asked) == true } ? 1 : 0
    }

    static let processTerminated: CWKProcessTerminatedHandler = { _, reason, data in
        let page = WeakTarget<SignInPage>.from(data)
        let mapped: WebProcessTerminationReason = switch reason {
        case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: .exceededMemoryLimit
        case WEBKIT_WEB_PROCESS_TERMINATED_BY_API: .terminatedByAPI
        default: .crashed
        }
        WebKitActor.assumeIsolated { _ = page?.receive(.webProcessTerminated(mapped)) }
    }

    static let pageClosed: CWKViewCloseHandler = { _, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { _ = page?.receive(.windowClosed) }
    }

    static let progress: CWKNotifyHandler = { _, _, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { page?.progressChanged() }
    }

    static let title: CWKNotifyHandler = { _, _, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { page?.titleChanged() }
    }

    /// The person closed the window. The session destroys it; GTK must not (TRUE).
    static let deleteEvent: CWKDeleteEventHandler = { _, _, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { _ = page?.receive(.windowClosed) }
        return 1
    }

    /// GTK is destroying the window: its parent was destroyed (`destroy-with-parent`), or the
    /// host application destroyed it. Nothing of it may be touched afterwards.
    static let windowDestroyed: CWKDestroyHandler = { _, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { page?.windowDestroyed() }
    }

    /// Escape in the sign-in window: the person cancels (TRUE: the key is handled).
    static let keyPress: CWKKeyPressHandler = { _, event, data in
        let page = WeakTarget<SignInPage>.from(data)
        guard let event, cwk_event_key_keyval(event) == UInt32(GDK_KEY_Escape) else {
            WebKitActor.assumeIsolated { _ = page?.receive(.input(at: .now)) }
            return 0
        }
        WebKitActor.assumeIsolated { _ = page?.receive(.windowClosed) }
        return 1
    }

    /// Any input on a kiosk page (FALSE: the page still gets it).
    static let input: CWKInputEventHandler = { _, _, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { _ = page?.receive(.input(at: .now)) }
        return 0
    }

    /// A kiosk shows no context menu (TRUE: handled, nothing shown).
    static let refuseContextMenu: CWKContextMenuHandler = { _, _, _, _, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { page?.refused(WebAuthenticationEvent.contextMenuRefused, "context menu") }
        return 1
    }

    /// A kiosk opens no file chooser: the request is cancelled (TRUE: handled).
    static let refuseFileChooser: CWKFileChooserHandler = { _, request, data in
        if let request { webkit_file_chooser_request_cancel(request) }
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { page?.refused(WebAuthenticationEvent.fileChooserRefused, "file chooser") }
        return 1
    }

    /// `window.print()` on a page that may not print (TRUE: no print dialog).
    static let refusePrint: CWKPrintHandler = { _, _, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { page?.refusePrint() }
        return 1
    }

    /// The header bar's Cancel button.
    static let cancelClicked: CWKClickedHandler = { _, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { _ = page?.receive(.windowClosed) }
    }

    private static func navigationResponse(_ decision: UnsafeMutablePointer<WebKitResponsePolicyDecision>) -> NavigationResponse {
        let response = webkit_response_policy_decision_get_response(decision)
        return NavigationResponse(
            url: response.flatMap { webkit_uri_response_get_uri($0) }.map { String(cString: $0) } ?? "",
            canShowMIMEType: webkit_response_policy_decision_is_mime_type_supported(decision) != 0,
            contentDisposition: response.flatMap { webkit_uri_response_get_http_headers($0) }
                .flatMap { soup_message_headers_get_one($0, "Content-Disposition") }.map { String(cString: $0) })
    }

    private static func navigationRequest(_ action: OpaquePointer?, opensNewWindow: Bool) -> NavigationRequest? {
        guard let action, let request = webkit_navigation_action_get_request(action),
              let uri = webkit_uri_request_get_uri(request) else { return nil }
        let trigger: NavigationRequest.Trigger = switch webkit_navigation_action_get_navigation_type(action) {
        case WEBKIT_NAVIGATION_TYPE_LINK_CLICKED: .link
        case WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED: .formSubmission
        case WEBKIT_NAVIGATION_TYPE_BACK_FORWARD: .backForward
        case WEBKIT_NAVIGATION_TYPE_RELOAD: .reload
        case WEBKIT_NAVIGATION_TYPE_FORM_RESUBMITTED: .formResubmission
        default: .other
        }
        return NavigationRequest(url: String(cString: uri),
                                 method: webkit_uri_request_get_http_method(request).map { String(cString: $0) },
                                 trigger: trigger,
                                 isRedirect: webkit_navigation_action_is_redirect(action) != 0,
                                 opensNewWindow: opensNewWindow)
    }
}

extension LoadFailure {
    /// The failure `error` describes (WebKit's `GError`, copied) for a load of `url`.
    init(url: String, error: GLibError?) {
        guard let error else {
            self.init(url: url, domain: "", code: 0, message: "unknown error", cause: .failed)
            return
        }
        let cause: Cause
        if error.matches(webkit_policy_error_quark(), Int(WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE.rawValue))
            || error.matches(webkit_network_error_quark(), Int(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue)) {
            cause = .stoppedByPolicy
        } else if error.matches(g_io_error_quark(), Int(G_IO_ERROR_CANCELLED.rawValue)) {
            cause = .requestCancelled
        } else {
            cause = .failed
        }
        self.init(url: url, domain: error.domain, code: error.code, message: error.message, cause: cause)
    }
}
