/// The D-Bus error names of the contract, each with the `webauth` exit status it stands for.
public enum BrokerErrorName: String, Sendable, Hashable, CaseIterable {
    /// Something on this machine failed (exit status 1).
    case failed = "org.webauthsession.Error.Failed"
    /// The person cancelled or denied the sign-in (2).
    case cancelled = "org.webauthsession.Error.Cancelled"
    /// The provider answered with an error (3).
    case providerError = "org.webauthsession.Error.ProviderError"
    /// The provider could not be reached, or its TLS failed (4).
    case networkError = "org.webauthsession.Error.NetworkError"
    /// No answer in time (5).
    case timedOut = "org.webauthsession.Error.TimedOut"
    /// The account has no usable sign-in (6).
    case notSignedIn = "org.webauthsession.Error.NotSignedIn"
    /// The login script stopped at a step (7).
    case scriptFailed = "org.webauthsession.Error.ScriptFailed"
    /// The page asks for what only a person can give (8).
    case needsPerson = "org.webauthsession.Error.NeedsPerson"
    /// An argument or option is wrong (64).
    case invalidArgument = "org.webauthsession.Error.InvalidArgument"
    /// The person did not allow this app to use the account (no exit status of its own: 2, as denied).
    case accessDenied = "org.webauthsession.Error.AccessDenied"

    /// The `webauth` exit status of this kind of failure.
    public var exitStatus: UInt32 {
        switch self {
        case .failed: 1
        case .cancelled, .accessDenied: 2
        case .providerError: 3
        case .networkError: 4
        case .timedOut: 5
        case .notSignedIn: 6
        case .scriptFailed: 7
        case .needsPerson: 8
        case .invalidArgument: 64
        }
    }

    /// The name for a `webauth` exit status; one the contract has no name for is ``failed``.
    public init(exitStatus: Int32) {
        self = Self.allCases.first { $0 != .accessDenied && Int32($0.exitStatus) == exitStatus } ?? .failed
    }
}
