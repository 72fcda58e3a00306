internal import CWebKitGTK

/// Browsers apply a page's Content-Security-Policy `form-action` to a submitted form's
/// redirects too, and stop, silently, one that goes where the policy does not allow: a provider
/// whose policy does not name the app's custom scheme (LemonLDAP::NG's default `*` names only
/// network schemes) stops its own consent form's redirect to the redirect URI, and the page
/// just stays. This watch, in the engine's isolated world, hears the page's
/// `securitypolicyviolation` event for an enforced `form-action` and ends the sign-in with
/// ``WebAuthenticationError/formActionBlocked(redirectURI:page:)``. It posts nothing of the page.
@WebKitActor
enum FormActionWatch {
    /// The script message handler the watch posts to, in ``JavaScriptBridge/helperWorld``.
    nonisolated static let channel = "webauthsessionFormAction"

    /// The watch (isolated world, top frame, document start).
    nonisolated static let script = """
        document.addEventListener('securitypolicyviolation', (event) => {
            if (event.effectiveDirective === 'form-action' && event.disposition === 'enforce')
                window.webkit.messageHandlers.\(channel).postMessage(true);
        }, true);
        """

    /// Installs the watch in `view`'s pages; `page` hears it for as long as the returned connection is kept.
    static func install(in view: UnsafeMutablePointer<WebKitWebView>, reportingTo page: SignInPage) -> SignalConnection {
        PageScriptChannel.install(script, posting: channel, world: JavaScriptBridge.helperWorld, in: view) {
            SignalConnection($0, .scriptMessageReceived(channel), target: page, handler: received)
        }
    }

    private nonisolated static let received: CWKScriptMessageHandler = { _, _, data in
        let page = WeakTarget<SignInPage>.from(data)
        WebKitActor.assumeIsolated { page?.formActionBlocked() }
    }
}

extension SignInPage {
    /// The page's `form-action` policy stopped a form (``FormActionWatch``): the sign-in ends,
    /// naming the redirect URI the provider must allow.
    func formActionBlocked() {
        let page = redactedCurrentURL ?? ""
        logger.info("form-action blocked", metadata: ["url": "\(page)"])
        fail(.formActionBlocked(redirectURI: redirectURI.description, page: page))
    }
}
