import OpenIDConnect

/// Why an ``OpenIDClient`` sign-in or sign-out failed: in the user agent, in the protocol, or
/// in the store.
public enum OpenIDClientError: Error, Sendable, CustomStringConvertible {
    /// The user agent brought back no redirect (cancelled, timed out, no browser, its own failure).
    case userAgent(AuthorizationUserAgentError)
    /// The protocol failed (discovery, the response's checks, the token request, the ID token).
    case openIDConnect(OpenIDConnectError)
    /// The saved state could not be removed (sign-out).
    case storage(AuthStateStoreError)

    public var description: String {
        switch self {
        case .userAgent(let error): "\(error)"
        case .openIDConnect(let error): "\(error)"
        case .storage(let error): "\(error)"
        }
    }
}
