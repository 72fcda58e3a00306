/// What a page asked of a passkey or security key (WebAuthn's `navigator.credentials` call).
public enum PasskeyOperation: String, Sendable, Hashable, CustomStringConvertible {
    /// `navigator.credentials.get`: sign in with a passkey or security key.
    case get
    /// `navigator.credentials.create`: register a new passkey or security key.
    case create

    public var description: String {
        switch self {
        case .get: "sign in with a passkey or security key"
        case .create: "register a passkey or security key"
        }
    }
}
