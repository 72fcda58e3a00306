import Foundation

/// An access token with what a caller needs to use it: its type, when it expires and the scopes
/// it carries. A credential: `description` shows its length only.
public struct AccessToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token itself.
    public let token: String
    /// Its type, normally `Bearer`.
    public let tokenType: String
    /// When it expires, if the provider said.
    public let expiresAt: Date?
    /// The scopes it carries, if known.
    public let scopes: [String]?

    /// An access token.
    public init(token: String, tokenType: String, expiresAt: Date?, scopes: [String]?) {
        self.token = token
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.scopes = scopes
    }

    /// The access token of a token response that answered a request for `target`. A provider
    /// that leaves `scope` out grants what was asked for (RFC 6749 §5.1).
    init(_ response: TokenResponse, for target: AccessTokenTarget) {
        self.init(token: response.accessToken, tokenType: response.tokenType, expiresAt: response.accessTokenExpiresAt,
                  scopes: response.scope.map { $0.split(separator: " ").map(String.init) } ?? target.scopes)
    }

    /// Whether it can be used at `date` for at least `minimumValidity` more. A token without a
    /// known lifetime counts as fresh.
    public func isFresh(at date: Date = Date(), minimumValidity: Duration) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt.timeIntervalSince(date) > Double(minimumValidity.components.seconds)
    }

    /// Names and lengths only.
    public var description: String {
        "AccessToken(<\(token.count) chars>, token_type: \(tokenType), expires_at: \(expiresAt.map { "\($0)" } ?? "-"), "
            + "scope: \(scopes?.joined(separator: " ") ?? "-"))"
    }

    enum CodingKeys: String, CodingKey {
        case token = "access_token", tokenType = "token_type", expiresAt = "expires_at", scopes = "scopes"
    }
}
