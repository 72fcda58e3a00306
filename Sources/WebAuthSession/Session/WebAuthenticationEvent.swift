/// Progress of a sign-in, for a spinner, a status line or a navigation log. Every URL in an
/// event has its values redacted (`URLRedaction`): events are safe to log.
public enum WebAuthenticationEvent: Sendable, Hashable {
    /// A page started loading.
    case loadStarted(url: String)
    /// The server redirected the load to `url`.
    case loadRedirected(url: String)
    /// The page's first bytes arrived: it is now the page shown, from `host`, with this TLS state.
    case loadCommitted(url: String, host: String, tls: TLSState)
    /// Estimated load progress, from 0 to 1.
    case progress(Double)
    /// The page finished loading.
    case loadFinished(url: String)
    /// A load of `url` failed before or after it committed: `reason` names the error (its GLib
    /// domain and code). `ignored` when the engine caused it (a navigation it stopped, a load it
    /// started again) and the sign-in goes on; otherwise the sign-in ends with it.
    case loadFailed(url: String, reason: String, ignored: Bool)
    /// `host`'s certificate failed the system's checks, the CA file's authorities vouched for
    /// it, and the page loads again trusting it.
    case certificateTrusted(host: String)
    /// The page title changed.
    case titleChanged(String)
    /// The engine decided what to do with a navigation (every one, with its reason).
    case navigation(NavigationDecision)
    /// The page at `url` called `window.print()` and the engine refused it: no print dialog in
    /// a kiosk (it would lead out of the kiosk) or a headless page (nobody could answer it).
    case printRefused(url: String)
    /// A kiosk page refused its context menu (a right click, a long press) at `url`.
    case contextMenuRefused(url: String)
    /// A kiosk page refused to open a file chooser (an `<input type=file>`) at `url`.
    case fileChooserRefused(url: String)
    /// A kiosk's "Still there?" warning appeared, `secondsLeft` before the idle reset.
    case idleWarningShown(secondsLeft: Int)
    /// The visitor touched, clicked or typed: the idle warning went away.
    case idleWarningDismissed
    /// A kiosk's touch keyboard appeared (a text field took focus) or went away.
    case touchKeyboard(shown: Bool)
    /// The page's server asked for HTTP authentication (Basic, Digest, NTLM, Negotiate) for
    /// `realm` at `host`, and the window shows WebKit's credentials dialog for a person to answer.
    case httpAuthenticationDialogShown(host: String, realm: String)
    /// The page asked for a passkey or security key (WebAuthn `navigator.credentials`) for
    /// `relyingParty`, and this came of it.
    case passkey(operation: PasskeyOperation, relyingParty: String, outcome: PasskeyOutcome)
    /// The security key dialog changed: it asks the person to touch their key, or for its PIN, or it closed.
    case securityKeyDialog(SecurityKeyDialogState)
}

/// What the security key dialog shows (``WebAuthenticationEvent/securityKeyDialog(_:)``).
public enum SecurityKeyDialogState: Sendable, Hashable {
    /// "Touch your security key", for a request of `relyingParty`.
    case touch(relyingParty: String)
    /// The PIN field; `triesLeft` after a wrong PIN.
    case pin(triesLeft: Int?)
    /// The dialog closed: the request was answered, refused or cancelled.
    case closed
}

/// The TLS state of a committed page.
public enum TLSState: Sendable, Hashable {
    /// Not loaded over TLS (`http`, `about:`, a custom scheme).
    case none
    /// A certificate that validated.
    case valid
    /// A certificate the system's authorities do not know, that leads to one of the CA file's
    /// (``WebAuthenticationOptions/caFile``) and names the host.
    case validByCAFile
    /// A certificate with errors (never shown to the person: the load is stopped).
    case invalid(TLSErrors)
}

/// One navigation the engine saw, and what it did with it.
public struct NavigationDecision: Sendable, Hashable, CustomStringConvertible {
    /// What the engine did.
    public enum Verdict: Sendable, Hashable {
        /// The navigation loaded.
        case allowed
        /// It was the redirect URI: stopped before any request, and returned as the callback.
        case captured
        /// It was stopped.
        case refused(RefusalReason)
    }

    /// Why a navigation was stopped.
    public enum RefusalReason: String, Sendable, Hashable {
        /// The redirect URI's scheme (or a loopback or `https` redirect URI's scheme, host and
        /// port), but not the redirect URI (`com.example:/cbx`, `http://127.0.0.1:PORT/cbx`).
        case redirectLookalike = "redirect URI lookalike"
        /// A page resource (an image, `fetch`, XHR) aimed at the redirect URI's private scheme:
        /// answered with an error, never taken for the redirect.
        case redirectSubresource = "page resource aimed at the redirect URI"
        /// It would open a new window.
        case newWindow = "new window"
        /// A `data:` or `blob:` URL (phishing pages in disguise; no sign-in page needs one).
        case dataURL = "data URL"
        /// A `file:` URL.
        case fileURL = "file URL"
        /// A `javascript:` URL as a navigation.
        case javascriptURL = "javascript URL"
        /// A scheme no sign-in page needs (`mailto:`, another app's scheme...).
        case unknownScheme = "unknown scheme"
        /// A response the engine cannot read (see ``WebAuthenticationError/formPostNotCapturable(url:)``).
        case unreadableResponse = "unreadable response"
        /// A kiosk's page tried to leave the hosts it is allowed to show.
        case hostNotAllowed = "host not on the kiosk's allowlist"
        /// The response would have been saved as a file (`Content-Disposition: attachment`, a
        /// type WebKit cannot show, a `download` link): a sign-in never downloads.
        case download
    }

    /// The URL, with every value that could be a secret replaced by its length (`URLRedaction`).
    public let url: String
    /// What the engine did.
    public let verdict: Verdict

    public var description: String {
        switch verdict {
        case .allowed: "allowed \(url)"
        case .captured: "captured \(url)"
        case .refused(let reason): "refused \(url) (\(reason.rawValue))"
        }
    }
}
