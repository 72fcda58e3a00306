/// Why an action with fresh tokens could not run.
public enum AuthStateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Only a new sign-in can help (the state is marked with the reason, and saved).
    case signInRequired(AuthState.ReauthenticationReason)
    /// The refresh or the userinfo request failed in a way that may pass (network, TLS, a
    /// provider answering garbage); the state is unchanged.
    case openIDConnect(OpenIDConnectError)
    /// The refreshed state could not be saved; nobody was given its tokens.
    case saveFailed(String)
    /// The UserInfo response is for another subject than the ID token (OpenID Connect Core §5.3.2).
    case userinfoSubjectMismatch(expected: String, actual: String?)

    public var description: String {
        switch self {
        case .signInRequired(let reason): "sign in again: \(reason)"
        case .openIDConnect(let error): "\(error)"
        case .saveFailed(let message): "could not save the refreshed sign-in: \(message)"
        case .userinfoSubjectMismatch(let expected, let actual): "userinfo is for '\(actual ?? "nobody")', not '\(expected)'"
        }
    }
}
