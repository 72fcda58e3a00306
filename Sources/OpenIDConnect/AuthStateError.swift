import Foundation

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
    /// The provider would not issue an access token for `target` (`invalid_scope`: a scope the
    /// sign-in was not granted; `invalid_target`: a resource it does not know, RFC 8707). The
    /// sign-in is unchanged and still usable for what it was granted.
    case accessTokenRefused(AccessTokenTarget, OAuthError)
    /// The sign-in holds no ID token (it was made without the `openid` scope).
    case noIDToken
    /// The ID token expires sooner than asked, and a refresh brought no new one (the provider
    /// issues ID tokens at sign-in only).
    case idTokenNotRenewed(expiresAt: Date)

    public var description: String {
        switch self {
        case .signInRequired(let reason): "sign in again: \(reason)"
        case .openIDConnect(let error): "\(error)"
        case .saveFailed(let message): "could not save the refreshed sign-in: \(message)"
        case .userinfoSubjectMismatch(let expected, let actual): "userinfo is for '\(actual ?? "nobody")', not '\(expected)'"
        case .accessTokenRefused(let target, let error):
            "the provider refused an access token for \(target): \(error); ask only for scopes and resources the sign-in may have, or sign in asking for them"
        case .noIDToken: "the sign-in has no ID token: sign in with the openid scope"
        case .idTokenNotRenewed(let expiresAt):
            "the ID token expires at \(ISO8601DateFormatter().string(from: expiresAt)), sooner than asked, and the provider's refresh brought no new one: sign in again for a new one"
        }
    }
}
