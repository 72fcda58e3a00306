/// Why a device authorization grant (RFC 8628) could not run. The grant's own endings (the
/// person denied, the code expired) are states (``DeviceAuthorizationState``), not errors.
public enum DeviceAuthorizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The provider has no device authorization endpoint: its discovery document lists no
    /// `device_authorization_endpoint`. Give the endpoint explicitly if the provider has one,
    /// or sign in in a browser instead.
    case noEndpoint(issuer: String)
    /// The device authorization endpoint refused to issue a code (`unauthorized_client`: the
    /// client is not registered for the device grant; `invalid_scope`; `invalid_client`).
    case refused(OAuthError)
    /// Discovery, the transport, a poll's answer (an OAuth error other than the grant's own),
    /// or the ID token failed.
    case openIDConnect(OpenIDConnectError)
    /// The task that ran the grant was cancelled.
    case cancelled
    /// The provider named a verification page (`verification_uri` or `verification_uri_complete`)
    /// that is not https (nor http to a loopback host): a person would type their password into
    /// a page anyone on the network can read or replace. The URI, with its values hidden.
    case insecureVerificationURI(String)

    public var description: String {
        switch self {
        case .noEndpoint(let issuer):
            "\(issuer) has no device authorization endpoint in its discovery document: give it explicitly "
                + "(device_authorization_endpoint), or sign in in a browser"
        case .refused(let error): "the device authorization endpoint refused: \(error)"
        case .openIDConnect(let error): "\(error)"
        case .cancelled: "the device sign-in was cancelled"
        case .insecureVerificationURI(let uri):
            "the provider's verification page \(uri) is not https: refusing to send anyone there to sign in"
        }
    }
}
