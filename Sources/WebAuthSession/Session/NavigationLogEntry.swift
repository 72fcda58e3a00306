import Foundation

/// One line of a session's navigation log (``WebAuthenticationSession/navigationLog``): what
/// happened, when, and to which URL. Every URL appears with its values redacted.
/// Encodes as JSON for a test harness's artefacts.
public struct NavigationLogEntry: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Milliseconds since the session started.
    public let milliseconds: Int
    /// `load-started`, `load-redirected`, `load-committed`, `load-finished`, `title`, `allowed`, `captured`, `refused`, `print-refused`.
    public let kind: String
    /// The URL (or the title, for `title`).
    public let value: String
    /// More: the TLS state of a committed page, the reason for a refusal.
    public let detail: String?

    /// `(event, ms)`, or `nil` for events too frequent for a log (load progress).
    init?(_ event: WebAuthenticationEvent, milliseconds: Int) {
        self.milliseconds = milliseconds
        switch event {
        case .loadStarted(let url): (kind, value, detail) = ("load-started", url, nil)
        case .loadRedirected(let url): (kind, value, detail) = ("load-redirected", url, nil)
        case .loadCommitted(let url, _, let tls): (kind, value, detail) = ("load-committed", url, "TLS: \(tls)")
        case .loadFinished(let url): (kind, value, detail) = ("load-finished", url, nil)
        case .titleChanged(let title): (kind, value, detail) = ("title", title, nil)
        case .progress: return nil
        case .printRefused(let url): (kind, value, detail) = ("print-refused", url, nil)
        case .navigation(let decision):
            switch decision.verdict {
            case .allowed: (kind, value, detail) = ("allowed", decision.url, nil)
            case .captured: (kind, value, detail) = ("captured", decision.url, nil)
            case .refused(let reason): (kind, value, detail) = ("refused", decision.url, reason.rawValue)
            }
        }
    }

    public var description: String {
        String(format: "%6d ms %@ %@", milliseconds, kind, value) + (detail.map { " (\($0))" } ?? "")
    }
}
