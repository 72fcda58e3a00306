import OpenIDConnect
import SecretGate

/// What came of a page's WebAuthn request (``WebAuthenticationEvent/passkey(operation:relyingParty:outcome:)``).
/// It names an authenticator or an error, never a challenge, a key or a signature.
public enum PasskeyOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The authenticator of this kind answered: the page has a credential or a signature.
    case answered(PasskeyAuthenticatorKind)
    /// The page's promise was rejected with the `DOMException` `name`, for `reason`.
    case failed(name: String, reason: String)

    public var description: String {
        switch self {
        case .answered(let kind): "answered by \(kind)"
        case .failed(let name, let reason): "\(name): \(reason)"
        }
    }
}
