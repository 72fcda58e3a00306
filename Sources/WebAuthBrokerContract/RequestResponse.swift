/// The first argument of a request's `Response` signal: how the request ended.
public enum RequestResponse: UInt32, Sendable, Hashable {
    /// It worked; the results say what it gave.
    case success = 0
    /// The person cancelled it (closed the window, or refused at the provider).
    case cancelled = 1
    /// It failed; the results say why (`error`, `error_name`, `exit_status`).
    case failed = 2
}
