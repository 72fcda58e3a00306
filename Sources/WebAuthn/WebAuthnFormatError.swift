/// Why WebAuthn or CTAP2 data read from outside (authenticator data, an attestation object, a
/// clientDataJSON, a CTAP2 command) cannot be used.
public enum WebAuthnFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not CTAP2 CBOR.
    case cbor(CBORError)
    /// Authenticator data shorter than its fields, or with flags that do not match what follows.
    case authenticatorData(String)
    /// A public key of a kind not supported, or malformed.
    case unsupportedKey(String)
    /// A map without a member it must have, or one of the wrong type.
    case missing(String)
    /// A clientDataJSON that is not a JSON object with the members WebAuthn gives it.
    case clientData(String)

    public var description: String {
        switch self {
        case .cbor(let error): "\(error)"
        case .authenticatorData(let problem): "authenticator data: \(problem)"
        case .unsupportedKey(let problem): "public key: \(problem)"
        case .missing(let member): "\(member) is missing or has the wrong type"
        case .clientData(let problem): "clientDataJSON: \(problem)"
        }
    }
}
