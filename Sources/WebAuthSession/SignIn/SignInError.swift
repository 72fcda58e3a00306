import OpenIDConnect

/// Why an OpenID Connect sign-in failed: in the browser part, in the protocol, or in the
/// login script the caller supplied.
public enum SignInError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sign-in page ended without a usable redirect (closed, cancelled, timed out, load or TLS failure...).
    case session(WebAuthenticationError)
    /// The protocol failed (discovery, the response's checks, the token request, the ID token).
    case openIDConnect(OpenIDConnectError)
    /// The login script threw: a ``LoginScript`` step (with a report of the page as it was:
    /// screenshot, text, navigation log), a page script, or an error of the script's own.
    case script(SignInScriptError)
    /// The saved state could not be removed (sign-out) or written.
    case storage(AuthStateStoreError)
    /// The device authorization grant could not run (no endpoint, refused, the network...).
    case deviceAuthorization(DeviceAuthorizationError)

    /// The person refused or closed the window: nothing to report as a failure.
    public var isUserCancellation: Bool {
        switch self {
        case .session(let error): error.isUserCancellation
        case .openIDConnect(.authorization(let oauth)): oauth.isAccessDenied
        default: false
        }
    }

    public var description: String {
        switch self {
        case .session(let error): "\(error)"
        case .openIDConnect(let error): "\(error)"
        case .script(let error): "login script failed: \(error)"
        case .storage(let error): "\(error)"
        case .deviceAuthorization(let error): "\(error)"
        }
    }
}
