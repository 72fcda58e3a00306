import Foundation

/// Everything a signed-in client keeps: the provider, the last authorization and token
/// responses, the validated ID token, whether the person must sign in again, and what later runs
/// need to act for the client (``SavedClient``). One `Codable`, versioned value, saved whole.
///
/// Versions: 1 had no ``client``; 2 adds it. An older value is migrated when it is read (its
/// ``client`` is `nil`); a newer one is refused. ``scopedAccessTokens`` and ``registration`` came
/// later in version 2, as keys older readers skip: a value without them has none.
public struct AuthState: Sendable, Hashable, Codable {
    /// The format version this library writes; it reads this one and every older one.
    public static let currentVersion = 2

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
    /// What later runs need to act for the client; `nil` in a state migrated from version 1, or
    /// made by an application that keeps that itself.
    public var client: SavedClient?
    /// Access tokens for other scopes or resources than the sign-in's, by ``AccessTokenTarget/key``:
    /// a cache apart, that never replaces the sign-in's own access token or its scopes.
    public var scopedAccessTokens: [String: AccessToken] = [:]
    /// The key the tokens are bound to (DPoP, RFC 9449), if the sign-in asked for DPoP: refreshes
    /// and resource requests prove possession of it. Secret, like the refresh token.
    public var dpopKey: DPoPKey?
    /// The client's own registration (RFC 7591), when it registered itself: its secret and the
    /// registration access token, kept with the tokens and as secret as they are.
    public var registration: RegisteredClient?

    /// A state from a completed sign-in.
    public init(configuration: ProviderConfiguration, clientID: String, authorizationResponse: AuthorizationResponse?,
                tokenResponse: TokenResponse?, idToken: IDToken?, dpopKey: DPoPKey? = nil) {
        self.version = Self.currentVersion
        self.configuration = configuration
        self.clientID = clientID
        self.lastAuthorizationResponse = authorizationResponse
        self.lastTokenResponse = tokenResponse
        self.idToken = idToken
        self.dpopKey = dpopKey
    }

    /// The current access token, if any.
    public var accessToken: String? { lastTokenResponse?.accessToken ?? lastAuthorizationResponse?.accessToken }
    /// The current refresh token, if any.
    public var refreshToken: String? { lastTokenResponse?.refreshToken }

    /// The access token for `target`, if there is one (fresh or not).
    public func accessToken(for target: AccessTokenTarget) -> AccessToken? {
        guard target.isSignIn else { return scopedAccessTokens[target.key] }
        guard let accessToken else { return nil }
        let scope = lastTokenResponse?.scope ?? lastAuthorizationResponse?.scope
        return AccessToken(token: accessToken, tokenType: lastTokenResponse?.tokenType ?? lastAuthorizationResponse?.tokenType ?? "Bearer",
                           expiresAt: lastTokenResponse?.accessTokenExpiresAt, scopes: scope.map { $0.split(separator: " ").map(String.init) })
    }

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

    /// The same state with its access token expired (see ``TokenResponse/expiringAccessToken()``).
    func expiringAccessToken() -> AuthState {
        var next = self
        next.lastTokenResponse = lastTokenResponse?.expiringAccessToken()
        return next
    }

    /// Takes the response of a refresh for another `target`: its access token goes to the cache
    /// (expired ones leave it), a rotated refresh token replaces the sign-in's at once.
    func storing(_ response: TokenResponse, for target: AccessTokenTarget, at date: Date = Date()) -> AuthState {
        var next = self
        next.scopedAccessTokens = scopedAccessTokens.filter { $0.value.isFresh(at: date, minimumValidity: .zero) }
        next.scopedAccessTokens[target.key] = AccessToken(response, for: target)
        if let rotated = response.refreshToken { next.lastTokenResponse = lastTokenResponse?.replacingRefreshToken(rotated) }
        return next
    }

    enum CodingKeys: String, CodingKey {
        case version, configuration, clientID = "client_id", lastAuthorizationResponse = "last_authorization_response"
        case lastTokenResponse = "last_token_response", idToken = "id_token"
        case reauthenticationReason = "reauthentication_reason", client, scopedAccessTokens = "scoped_access_tokens", dpopKey = "dpop_key"
        case registration
    }

    /// Decodes a saved state, migrating an older version to the current one; a newer version is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let saved = try container.decode(Int.self, forKey: .version)
        guard (1...Self.currentVersion).contains(saved) else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container,
                                                   debugDescription: "auth state version \(saved) is not 1 to \(Self.currentVersion)")
        }
        version = Self.currentVersion  // version 1 differs only by the missing `client`
        configuration = try container.decode(ProviderConfiguration.self, forKey: .configuration)
        clientID = try container.decode(String.self, forKey: .clientID)
        lastAuthorizationResponse = try container.decodeIfPresent(AuthorizationResponse.self, forKey: .lastAuthorizationResponse)
        lastTokenResponse = try container.decodeIfPresent(TokenResponse.self, forKey: .lastTokenResponse)
        idToken = try container.decodeIfPresent(IDToken.self, forKey: .idToken)
        reauthenticationReason = try container.decodeIfPresent(ReauthenticationReason.self, forKey: .reauthenticationReason)
        client = saved >= 2 ? try container.decodeIfPresent(SavedClient.self, forKey: .client) : nil
        scopedAccessTokens = try container.decodeIfPresent([String: AccessToken].self, forKey: .scopedAccessTokens) ?? [:]
        dpopKey = try container.decodeIfPresent(DPoPKey.self, forKey: .dpopKey)
        registration = try container.decodeIfPresent(RegisteredClient.self, forKey: .registration)
    }
}
