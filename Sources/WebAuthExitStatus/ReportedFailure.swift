import OpenIDConnect

/// A failure as `webauth` reports it and its broker answers it: the ``ExitStatus`` that says what
/// kind it is, the one-line message (no token, code or secret: the errors it comes from redact
/// them), and advice when the failure knows better than its status. The classification lives here,
/// below both, so that a command and a bus caller get the same status for the same failure.
public struct ReportedFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public let status: ExitStatus
    /// What happened, in one line without a final period.
    public let message: String
    /// What a person can do about it, when the failure knows better than its status.
    public let advice: String?

    /// A failure of `status` saying `message`.
    public init(_ status: ExitStatus, _ message: String, advice: String? = nil) {
        self.status = status
        self.message = message
        self.advice = advice
    }

    public var description: String { message }

    /// A saved sign-in's failure to give fresh tokens.
    public init(_ error: AuthStateError) {
        switch error {
        case .signInRequired(let reason): self.init(.signInRequired, "not signed in: \(reason)")
        case .openIDConnect(let protocolError): self.init(Self.status(of: protocolError), "\(protocolError)", advice: Self.advice(of: protocolError))
        case .saveFailed: self.init(.localFailure, "\(error)")
        case .userinfoSubjectMismatch: self.init(.providerError, "\(error)")
        case .accessTokenRefused: self.init(.providerError, "\(error)", advice: "`webauth status` lists the scopes the sign-in was granted.")
        case .noIDToken, .idTokenNotRenewed: self.init(.signInRequired, "\(error)")
        }
    }

    /// A store's failure to read, write or lock a saved sign-in.
    public init(_ error: AuthStateStoreError) {
        if case .lockWaitTimedOut = error { self.init(.timedOut, "gave up waiting for the profile's lock: \(error)"); return }
        self.init(.localFailure, "the saved sign-in cannot be used: \(error)")
    }

    /// The kind of a protocol failure.
    public static func status(of error: OpenIDConnectError) -> ExitStatus {
        switch error {
        case .http(.timedOut): .timedOut
        case .http(.proxyAuthenticationFailed): .usage
        case .http: .networkError
        case .clientKey, .clientSecretTooShort: .usage
        // What the person typed for --user: not an identifier, or plain http to another host.
        case .webFinger(.notAnIdentifier), .webFinger(.insecure): .usage
        // A registered secret that expired, or a registration that needs an (other) initial access token: the caller's to give.
        case .registration(.secretExpired): .usage
        case .registration(.refused(let status, _)) where status == 401 || status == 403: .usage
        case .authorization(let oauth) where oauth.isAccessDenied: .cancelled
        default: .providerError
        }
    }

    /// What to do about a client key's PIN; `nil` when the status's advice is the best.
    package static func advice(of error: OpenIDConnectError) -> String? {
        if case .clientKey(.pinNeeded) = error { return "Give the token's PIN in WEBAUTH_PKCS11_PIN." }
        if case .clientKey(.wrongPIN) = error { return "Check WEBAUTH_PKCS11_PIN: a token locks after a few wrong PINs." }
        return nil
    }
}
