/// Why the system browser could not be opened (``AuthorizationUserAgentError/browserUnavailable(_:)``).
public enum BrowserUnavailableReason: Sendable, Hashable, CustomStringConvertible {
    /// The command of ``SystemBrowser/command(_:)`` is empty.
    case emptyCommand
    /// `program` could not be run; `message` is the system's reason.
    case notRun(program: String, message: String)
    /// `program` exited with `status`, not 0.
    case exited(program: String, status: Int32)
    /// Each of the desktop's openers (``SystemBrowser/desktopDefault``: `xdg-open`, then `gio open`)
    /// failed, for these reasons, in that order.
    case noOpenerWorked([BrowserUnavailableReason])
    /// The opener of ``SystemBrowser/custom(_:)`` threw; `message` describes what it threw.
    case customOpenerFailed(message: String)

    public var description: String {
        switch self {
        case .emptyCommand: "the browser command is empty"
        case .notRun(let program, let message): "\(program): \(message)"
        case .exited(let program, let status): "\(program) exited with status \(status)"
        case .noOpenerWorked(let reasons): reasons.map(\.description).joined(separator: "; ")
        case .customOpenerFailed(let message): message
        }
    }
}
