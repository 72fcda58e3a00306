/// Where a device authorization grant (RFC 8628) stands, for a UI to show: the code to enter,
/// then waiting, until the person approves, denies, or lets the code expire.
public enum DeviceAuthorizationState: Sendable, Hashable {
    /// The provider issued a code: show ``DeviceCode/userCode`` and ``DeviceCode/verificationURI``
    /// (or a QR code of ``DeviceCode/uriForQRCode``) to the person.
    case codeIssued(DeviceCode)
    /// The person has not finished yet (`authorization_pending`); the next poll is in `interval`.
    case waiting(interval: Duration)
    /// The provider asked to poll less often (`slow_down`): every `interval` from now on (5 s more).
    case slowedDown(interval: Duration)
    /// The person approved. The state holds the tokens, and the validated ID token when the
    /// provider issued one (``AuthState/idToken`` is `nil` for an OAuth-only device grant).
    case authorized(AuthState)
    /// The code expired before the person approved (`expired_token`, or its `expires_in` passed):
    /// start a new grant.
    case expired
    /// The person denied access (`access_denied`).
    case denied(OAuthError)

    /// Whether the grant has ended with this state (nothing follows it).
    public var isFinal: Bool {
        switch self {
        case .authorized, .expired, .denied: true
        case .codeIssued, .waiting, .slowedDown: false
        }
    }
}
