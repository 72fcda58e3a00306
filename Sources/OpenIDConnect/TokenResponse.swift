import Foundation

/// A successful token-endpoint response (RFC 6749 §5.1). Its tokens are credentials: they are
/// kept out of `description`.
public struct TokenResponse: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The access token.
    public let accessToken: String
    /// Its type, normally `Bearer`.
    public let tokenType: String
    /// Its lifetime in seconds, if given.
    public private(set) var expiresIn: Int?
    /// A refresh token, if issued (a new one on rotation).
    public private(set) var refreshToken: String?
    /// An ID token, if issued (not yet validated).
    public let idToken: String?
    /// The granted scopes, if the provider says.
    public let scope: String?
    /// When this response was received (set by the client, for expiry).
    public var receivedAt: Date

    /// When the access token expires, if the provider gave a lifetime.
    public var accessTokenExpiresAt: Date? { expiresIn.map { receivedAt.addingTimeInterval(Double($0)) } }

    /// Names and lengths only.
    public var description: String {
        "TokenResponse(access_token: <\(accessToken.count) chars>, token_type: \(tokenType), expires_in: \(expiresIn.map(String.init) ?? "-"), "
            + "refresh_token: \(refreshToken.map { "<\($0.count) chars>" } ?? "-"), id_token: \(idToken.map { "<\($0.count) chars>" } ?? "-"))"
    }

    /// The same response with `refreshToken` in place of the one it had.
    func replacingRefreshToken(_ token: String?) -> TokenResponse {
        var copy = self
        copy.refreshToken = token
        return copy
    }

    /// The same response with an access token that has expired when it was received, so that
    /// the next use refreshes it (the refresh token stays).
    func expiringAccessToken() -> TokenResponse {
        var copy = self
        copy.expiresIn = 0
        return copy
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
        case refreshToken = "refresh_token", idToken = "id_token", scope, receivedAt = "received_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        // Some providers send expires_in as a string.
        expiresIn = (try? container.decodeIfPresent(Int.self, forKey: .expiresIn))
            ?? (try? container.decodeIfPresent(String.self, forKey: .expiresIn)).flatMap { $0.flatMap { Int($0) } }
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        receivedAt = try container.decodeIfPresent(Date.self, forKey: .receivedAt) ?? Date()
    }
}
