/// A secret the engine or `webauth` holds and may hand to someone: what ``SecretGate`` decides on.
/// It names the kind of secret, never its value.
public enum ReleasedSecret: Sendable, Hashable, CustomStringConvertible {
    /// A login script's value typed into a page (a password, a one-time code).
    case typedValue
    /// The password of a login script's `http_auth`, for a server's `401` in `realm`.
    case httpAuthenticationPassword(realm: String)
    /// The client certificate (and its PIN) asked for in a TLS handshake.
    case clientCertificate
    /// A saved sign-in's access token, handed to a credential helper's caller or a program we run.
    case accessToken(profile: String)
    /// An environment variable of ours, in the environment of a program we start.
    case environmentVariable(String)
    /// A passkey's answer to a page's WebAuthn request for `relyingParty`: a new credential bound
    /// to it, or a signature that signs the page in; made by `authenticator`.
    case passkeySignature(relyingParty: String, authenticator: PasskeyAuthenticatorKind)
    /// The PIN of a security key, typed by a person into the engine's dialog.
    case securityKeyPIN

    public var description: String {
        switch self {
        case .typedValue: "a typed secret"
        case .httpAuthenticationPassword(let realm): "the HTTP-authentication password (realm '\(realm)')"
        case .clientCertificate: "the client certificate"
        case .accessToken(let profile): profile.isEmpty ? "an access token" : "the access token of profile '\(profile)'"
        case .environmentVariable(let name): "$\(name)"
        case .passkeySignature(let relyingParty, let authenticator): "\(authenticator)'s passkey for \(relyingParty)"
        case .securityKeyPIN: "the security key's PIN"
        }
    }
}
