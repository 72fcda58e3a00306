import Foundation

/// One line of a session's navigation log (``WebAuthenticationSession/navigationLog``): what
/// happened, when, and to which URL. Every URL appears with its values redacted.
/// Encodes as JSON for a test harness's artefacts.
public struct NavigationLogEntry: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Milliseconds since the session started.
    public let milliseconds: Int
    /// What happened; it encodes as its raw value (`load-committed`...).
    public let kind: Kind
    /// The URL (or the title, for `title`).
    public let value: String
    /// More: the TLS state of a committed page, the reason for a refusal.
    public let detail: String?

    /// What a ``NavigationLogEntry`` records.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A page load started (``value``: its URL).
        case loadStarted = "load-started"
        /// The load was redirected by the server.
        case loadRedirected = "load-redirected"
        /// The page committed: its first bytes arrived (``detail``: its TLS state).
        case loadCommitted = "load-committed"
        /// The page finished loading.
        case loadFinished = "load-finished"
        /// A load failed (``detail``: the error's domain and code, and whether the sign-in went on).
        case loadFailed = "load-failed"
        /// The CA file vouched for a certificate (``value``: the host); the page loads again.
        case certificateTrusted = "certificate-trusted"
        /// The page's title changed (``value``: the title).
        case title
        /// The navigation policy let a navigation through.
        case allowed
        /// The navigation was the redirect URI: the session captured it.
        case captured
        /// The navigation policy refused a navigation (``detail``: why).
        case refused
        /// The page asked to print and was refused.
        case printRefused = "print-refused"
        /// A kiosk page's context menu was refused.
        case contextMenuRefused = "context-menu-refused"
        /// A kiosk page's file chooser was refused.
        case fileChooserRefused = "file-chooser-refused"
        /// The window showed WebKit's credentials dialog for a server's HTTP authentication
        /// (``value``: the host, ``detail``: the realm).
        case httpAuthenticationDialog = "http-authentication-dialog"
        /// The page made a WebAuthn request (``value``: the relying party, ``detail``: the
        /// operation and what came of it).
        case passkey
    }

    /// `(event, ms)`, or `nil` for events too frequent for a log (load progress).
    init?(_ event: WebAuthenticationEvent, milliseconds: Int) {
        self.milliseconds = milliseconds
        switch event {
        case .loadStarted(let url): (kind, value, detail) = (.loadStarted, url, nil)
        case .loadRedirected(let url): (kind, value, detail) = (.loadRedirected, url, nil)
        case .loadCommitted(let url, _, let tls): (kind, value, detail) = (.loadCommitted, url, "TLS: \(tls)")
        case .loadFinished(let url): (kind, value, detail) = (.loadFinished, url, nil)
        case .loadFailed(let url, let reason, let ignored): (kind, value, detail) = (.loadFailed, url, ignored ? "\(reason); ignored" : reason)
        case .certificateTrusted(let host): (kind, value, detail) = (.certificateTrusted, host, "CA file; loading again")
        case .titleChanged(let title): (kind, value, detail) = (.title, title, nil)
        case .progress, .idleWarningShown, .idleWarningDismissed, .touchKeyboard, .securityKeyDialog: return nil
        case .printRefused(let url): (kind, value, detail) = (.printRefused, url, nil)
        case .contextMenuRefused(let url): (kind, value, detail) = (.contextMenuRefused, url, nil)
        case .fileChooserRefused(let url): (kind, value, detail) = (.fileChooserRefused, url, nil)
        case .httpAuthenticationDialogShown(let host, let realm): (kind, value, detail) = (.httpAuthenticationDialog, host, "realm: \(realm)")
        case .passkey(let operation, let relyingParty, let outcome): (kind, value, detail) = (.passkey, relyingParty, "\(operation.rawValue): \(outcome)")
        case .navigation(let decision):
            switch decision.verdict {
            case .allowed: (kind, value, detail) = (.allowed, decision.url, nil)
            case .captured: (kind, value, detail) = (.captured, decision.url, nil)
            case .refused(let reason): (kind, value, detail) = (.refused, decision.url, reason.rawValue)
            }
        }
    }

    public var description: String {
        String(format: "%6d ms %@ %@", milliseconds, kind.rawValue, value) + (detail.map { " (\($0))" } ?? "")
    }
}
