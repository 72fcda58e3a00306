import Foundation

/// Everything a signed-in client keeps: the provider, the last authorization and token
/// responses, the validated ID token, and whether the person must sign in again. One `Codable`,
/// versioned value, saved whole.
public struct AuthState: Sendable, Hashable, Codable {
    /// The format version this library writes and reads.
    public static let currentVersion = 1

    /// Why the state can no longer be refreshed.
    public enum ReauthenticationReason: Sendable, Hashable, Codable {
        /// The provider refused the refresh token (revoked, expired, rotated elsewhere).
        case refreshRejected(OAuthError)
        /// There is no refresh token and the access token has expired.
        case noRefreshToken
        /// The person signed out.
        case signedOut
    }

    /// The format version of this value.
    public let version: Int
    /// The provider.
    public var configuration: ProviderConfiguration
    /// The client ID the tokens were issued to.
    public var clientID: String
    /// The last authorization response.
    public var lastAuthorizationResponse: AuthorizationResponse?
    /// The last token response (after a refresh, the refresh's).
    public var lastTokenResponse: TokenResponse?
    /// The last validated ID token.
    public var idToken: IDToken?
    /// Set when only a new sign-in can help; `nil` while the state is usable.
    public var reauthenticationReason: ReauthenticationReason?

    /// A state from a completed sign-in.
    public init(configuration: ProviderConfiguration, clientID: String, authorizationResponse: AuthorizationResponse?,
                tokenResponse: TokenResponse?, idToken: IDToken?) {
        self.version = Self.currentVersion
        self.configuration = configuration
        self.clientID = clientID
        self.lastAuthorizationResponse = authorizationResponse
        self.lastTokenResponse = tokenResponse
        self.idToken = idToken
    }

    /// The current access token, if any.
    public var accessToken: String? { lastTokenResponse?.accessToken ?? lastAuthorizationResponse?.accessToken }
    /// The current refresh token, if any.
    public var refreshToken: String? { lastTokenResponse?.refreshToken }

    /// Whether the access token can be used at `date` for at least `tolerance` more. A token
    /// without a known lifetime counts as fresh.
    public func isAccessTokenFresh(at date: Date = Date(), tolerance: Duration = .seconds(60)) -> Bool {
        guard accessToken != nil, reauthenticationReason == nil else { return false }
        guard let expiry = lastTokenResponse?.accessTokenExpiresAt else { return true }
        return expiry.timeIntervalSince(date) > Double(tolerance.components.seconds)
    }

    /// Takes a refresh's response: a rotated refresh token replaces the old one, a missing one keeps it.
    func refreshed(with response: TokenResponse, idToken newIDToken: IDToken?) -> AuthState {
        var next = self
        let keptRefreshToken = response.refreshToken ?? refreshToken
        next.lastTokenResponse = response.replacingRefreshToken(keptRefreshToken)
        if let newIDToken { next.idToken = newIDToken }
        return next
    }

    enum CodingKeys: String, CodingKey {
        case version, configuration, clientID = "client_id", lastAuthorizationResponse = "last_authorization_response"
        case lastTokenResponse = "last_token_response", idToken = "id_token"
        case reauthenticationReason = "reauthentication_reason"
    }

    /// Decodes a saved state; a version this library does not know is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        guard version == Self.currentVersion else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container,
                                                   debugDescription: "auth state version \(version) is not \(Self.currentVersion)")
        }
        configuration = try container.decode(ProviderConfiguration.self, forKey: .configuration)
        clientID = try container.decode(String.self, forKey: .clientID)
        lastAuthorizationResponse = try container.decodeIfPresent(AuthorizationResponse.self, forKey: .lastAuthorizationResponse)
        lastTokenResponse = try container.decodeIfPresent(TokenResponse.self, forKey: .lastTokenResponse)
        idToken = try container.decodeIfPresent(IDToken.self, forKey: .idToken)
        reauthenticationReason = try container.decodeIfPresent(ReauthenticationReason.self, forKey: .reauthenticationReason)
    }
}
