/// The documented exit statuses of `webauth`, one per kind of outcome, so scripts can react. Its
/// sign-in broker answers with the same numbers (`exit_status`), so they live below both.
public enum ExitStatus: Int32, CaseIterable, Sendable {
    /// It worked.
    case success = 0
    /// Something on this machine failed: no display could be had, the saved sign-in could not be read or written.
    case localFailure = 1
    /// The person cancelled: closed the window, or denied access.
    case cancelled = 2
    /// The provider answered with an error or something the protocol does not allow.
    case providerError = 3
    /// The provider could not be reached, or its TLS certificate is not valid.
    case networkError = 4
    /// No answer in time.
    case timedOut = 5
    /// There is no usable saved sign-in: run `webauth login`.
    case signInRequired = 6
    /// The login script stopped at a step.
    case scriptFailed = 7
    /// The page asks for what only a person can give: a captcha, a passkey or security key.
    case needsPerson = 8
    /// The command line or the configuration file is wrong.
    case usage = 64
    /// `webauth exec`: the program was found but cannot be run (as a shell says).
    case cannotRun = 126
    /// `webauth exec`: no such program (as a shell says).
    case commandNotFound = 127
    /// Ctrl-C (SIGINT) stopped it; nothing after the interruption was done.
    case interrupted = 130
    /// SIGTERM stopped it; nothing after the interruption was done.
    case terminated = 143
}
