/// CTAP2's status codes (CTAP 2.1 §8.2), the first byte of every answer to a CBOR command.
public enum CTAP2Status: UInt8, Error, Sendable, Hashable {
    /// Success.
    case ok = 0x00
    /// The command is not one the authenticator knows.
    case invalidCommand = 0x01
    /// A parameter is invalid.
    case invalidParameter = 0x02
    /// The message is too long or too short.
    case invalidLength = 0x03
    /// A CBOR value of the wrong type.
    case cborUnexpectedType = 0x11
    /// Bytes that are not CTAP2 CBOR.
    case invalidCBOR = 0x12
    /// A required parameter is missing.
    case missingParameter = 0x14
    /// A credential of the exclude list is on the authenticator.
    case credentialExcluded = 0x19
    /// None of the algorithms asked for.
    case unsupportedAlgorithm = 0x26
    /// The person did not confirm.
    case operationDenied = 0x27
    /// An option the authenticator does not support.
    case unsupportedOption = 0x2B
    /// An option value it cannot honour.
    case invalidOption = 0x2C
    /// No credential for the request.
    case noCredentials = 0x2E
    /// Nobody touched the key in time.
    case userActionTimeout = 0x2F
    /// No more assertions (getNextAssertion).
    case notAllowed = 0x30
    /// A wrong PIN (tries are left).
    case pinInvalid = 0x31
    /// The PIN is blocked: no tries are left.
    case pinBlocked = 0x32
    /// A `pinAuth` that does not prove the PIN.
    case pinAuthInvalid = 0x33
    /// The request needs a PIN the client did not give.
    case pinRequired = 0x36
    /// Anything else.
    case other = 0x7F

    /// The status for an authenticator's error.
    init(_ error: AuthenticatorError) {
        self = switch error {
        case .credentialExcluded: .credentialExcluded
        case .noCredentials: .noCredentials
        case .unsupportedAlgorithm: .unsupportedAlgorithm
        case .userVerificationUnavailable: .invalidOption
        case .residentKeyUnavailable: .unsupportedOption
        case .notConfirmed: .operationDenied
        case .pin: .pinRequired
        case .unavailable: .userActionTimeout
        case .store, .credentialsFile: .other
        }
    }
}
