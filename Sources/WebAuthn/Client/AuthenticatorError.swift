/// Why an authenticator did not answer (CTAP2's status codes, by what the page must see).
public enum AuthenticatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A credential of `excludeCredentials` is on the authenticator (CTAP2_ERR_CREDENTIAL_EXCLUDED).
    case credentialExcluded
    /// No credential of the relying party (or of the allow list) is on it (CTAP2_ERR_NO_CREDENTIALS).
    case noCredentials
    /// It has none of the algorithms asked for (CTAP2_ERR_UNSUPPORTED_ALGORITHM).
    case unsupportedAlgorithm
    /// It cannot verify the person, and the request requires it.
    case userVerificationUnavailable
    /// It cannot keep a discoverable credential, and the request requires one.
    case residentKeyUnavailable
    /// The person did not confirm (did not touch the key, cancelled, or the script says no presence).
    case notConfirmed(String)
    /// The key asks for its PIN and none was given, or it was wrong or is blocked.
    case pin(String)
    /// The key did not answer in time, or was pulled out.
    case unavailable(String)
    /// A stored credential's key is damaged.
    case store(String)
    /// The credentials file could not be read or written.
    case credentialsFile(VirtualCredentialFileError)

    /// The error the page sees.
    public var domError: WebAuthnDOMError {
        switch self {
        case .credentialExcluded: WebAuthnDOMError(.invalidState, "the authenticator already holds a credential of this account")
        case .unsupportedAlgorithm: WebAuthnDOMError(.notSupported, "no algorithm the relying party accepts is supported")
        case .userVerificationUnavailable: WebAuthnDOMError(.constraint, "the authenticator cannot verify the user")
        case .residentKeyUnavailable: WebAuthnDOMError(.constraint, "the authenticator cannot keep a discoverable credential")
        case .noCredentials, .notConfirmed, .pin, .unavailable, .store, .credentialsFile:
            WebAuthnDOMError(.notAllowed, "The operation either timed out or was not allowed.")
        }
    }

    public var description: String {
        switch self {
        case .credentialExcluded: "the authenticator already holds a credential the page excluded"
        case .noCredentials: "the authenticator holds no credential for this relying party"
        case .unsupportedAlgorithm: "the authenticator has none of the algorithms the page accepts"
        case .userVerificationUnavailable: "the authenticator cannot verify the user, which the page requires"
        case .residentKeyUnavailable: "the authenticator cannot keep a discoverable credential, which the page requires"
        case .notConfirmed(let why): "the authenticator did not confirm: \(why)"
        case .pin(let why): "the security key's PIN: \(why)"
        case .unavailable(let why): "the authenticator is unavailable: \(why)"
        case .store(let why): "the authenticator's credentials: \(why)"
        case .credentialsFile(let error): "\(error)"
        }
    }
}
