import WebAuthn
internal import CFido2

/// A libfido2 result (`FIDO_OK`, `FIDO_ERR_*`), as the ``AuthenticatorError`` the page's error comes from.
struct FIDOStatus: Error, Equatable {
    let code: Int32

    init(_ code: Int32) { self.code = code }

    /// Whether the call succeeded.
    var isOK: Bool { code == FIDO_OK }

    /// Whether the key asks for its PIN (none was given, or it was wrong).
    var asksForPIN: Bool { code == FIDO_ERR_PIN_REQUIRED || code == FIDO_ERR_PIN_INVALID }

    /// libfido2's words for it.
    var message: String { String(cString: fido_strerr(code)) }

    /// What it means for the request.
    var authenticatorError: AuthenticatorError {
        switch code {
        case FIDO_ERR_CREDENTIAL_EXCLUDED: .credentialExcluded
        case FIDO_ERR_NO_CREDENTIALS: .noCredentials
        case FIDO_ERR_UNSUPPORTED_ALGORITHM: .unsupportedAlgorithm
        case FIDO_ERR_KEEPALIVE_CANCEL, FIDO_ERR_OPERATION_DENIED: .notConfirmed(message)
        case FIDO_ERR_PIN_REQUIRED, FIDO_ERR_PIN_INVALID, FIDO_ERR_PIN_BLOCKED, FIDO_ERR_PIN_AUTH_BLOCKED, FIDO_ERR_PIN_NOT_SET: .pin(message)
        default: .unavailable(message)  // a timeout, a key pulled out (FIDO_ERR_TX, FIDO_ERR_RX), anything else
        }
    }
}
