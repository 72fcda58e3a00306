/// An error response from the authorization server (RFC 6749 §4.1.2.1, §5.2): what the
/// provider said, for a caller to act on.
public struct OAuthError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The error code, such as `access_denied` or `invalid_grant`.
    public let error: String
    /// The provider's human-readable explanation, if any.
    public let errorDescription: String?
    /// A page about the error, if any.
    public let errorURI: String?
    /// The HTTP status of a token-endpoint error (absent for authorization responses).
    public let httpStatus: Int?

    /// An error response.
    public init(error: String, errorDescription: String? = nil, errorURI: String? = nil, httpStatus: Int? = nil) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorURI = errorURI
        self.httpStatus = httpStatus
    }

    /// The person refused (`access_denied`): not a failure to report as one.
    public var isAccessDenied: Bool { error == "access_denied" }
    /// The grant (code or refresh token) is invalid, expired or revoked: sign in again.
    public var isInvalidGrant: Bool { error == "invalid_grant" }

    public var description: String {
        var text = error
        if let errorDescription { text += ": \(errorDescription)" }
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        return text
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        case errorURI = "error_uri"
        case httpStatus = "http_status"
    }
}
