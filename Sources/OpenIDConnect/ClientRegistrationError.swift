import Foundation

/// Why a client could not register itself (RFC 7591), or can no longer use its registration.
public enum ClientRegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The provider's discovery names no `registration_endpoint`: register the client by hand.
    case noRegistrationEndpoint(issuer: String)
    /// The provider refused the registration (RFC 7591 §3.2.2: `invalid_redirect_uri`,
    /// `invalid_client_metadata`; a `401` for a missing or wrong initial access token).
    case refused(status: Int, OAuthError)
    /// The answer has no `client_id`, or is not JSON.
    case malformedResponse(String)
    /// The registered client's secret expired (`client_secret_expires_at`): register again.
    case secretExpired(clientID: String, expiredAt: Date)

    public var description: String {
        switch self {
        case .noRegistrationEndpoint(let issuer): "the provider \(issuer) has no registration_endpoint: it does not take dynamic client registration"
        case .refused(let status, let error):
            status == 401 || status == 403
                ? "the provider refused the registration (HTTP \(status)): \(error); it needs an initial access token, or another one"
                : "the provider refused the registration (HTTP \(status)): \(error)"
        case .malformedResponse(let why): "the registration's answer cannot be used: \(why)"
        case .secretExpired(let clientID, let date):
            "the client secret registered for \(clientID) expired at \(ISO8601DateFormatter().string(from: date)): register the client again"
        }
    }
}
