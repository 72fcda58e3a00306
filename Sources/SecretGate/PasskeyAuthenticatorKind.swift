/// Which authenticator would make a passkey's signature: what ``SecretGate`` needs to know of it.
public enum PasskeyAuthenticatorKind: String, Sendable, Hashable, CustomStringConvertible {
    /// The software authenticator a login script configures (its keys in a 0600 file).
    case virtual
    /// A FIDO2 security key a person touches.
    case securityKey

    public var description: String {
        switch self {
        case .virtual: "the virtual authenticator"
        case .securityKey: "the security key"
        }
    }
}
