import Foundation

/// What a provider answered to a client registration (RFC 7591 §3.2.1, RFC 7592 §3): the client
/// ID, its secret and when that expires, and the registration access token and URI that manage the
/// registration. Secret: it holds the client secret and the registration access token, so it is
/// kept only where a sign-in's tokens are (``AuthState/registration``), never printed.
public struct RegisteredClient: Sendable, Hashable, Codable {
    /// `client_id`.
    public var clientID: String
    /// `client_secret`, for a confidential client.
    public var clientSecret: String?
    /// When the secret expires (`client_secret_expires_at`); `nil` when it does not (`0`).
    public var clientSecretExpiresAt: Date?
    /// When the client ID was issued, if the provider says.
    public var clientIDIssuedAt: Date?
    /// The token for reading, changing and deleting the registration (RFC 7592), if any.
    public var registrationAccessToken: String?
    /// Where the registration is managed (RFC 7592), if anywhere.
    public var registrationClientURI: URL?
    /// How the client authenticates at the token endpoint, as the provider registered it.
    public var tokenEndpointAuthMethod: SavedClient.AuthenticationMethod
    /// The redirect URIs as registered.
    public var redirectURIs: [String]
    /// The name as registered, if any.
    public var clientName: String?

    /// A registered client.
    public init(clientID: String, clientSecret: String? = nil, clientSecretExpiresAt: Date? = nil, clientIDIssuedAt: Date? = nil,
                registrationAccessToken: String? = nil, registrationClientURI: URL? = nil,
                tokenEndpointAuthMethod: SavedClient.AuthenticationMethod = .none, redirectURIs: [String] = [], clientName: String? = nil) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientSecretExpiresAt = clientSecretExpiresAt
        self.clientIDIssuedAt = clientIDIssuedAt
        self.registrationAccessToken = registrationAccessToken
        self.registrationClientURI = registrationClientURI
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.redirectURIs = redirectURIs
        self.clientName = clientName
    }

    /// Whether the secret has expired at `date` (a client without a secret, or whose secret does
    /// not expire, never has).
    public func isSecretExpired(at date: Date = Date()) -> Bool {
        guard clientSecret != nil, let expiry = clientSecretExpiresAt else { return false }
        return expiry <= date
    }

    /// How the client authenticates at the token endpoint at `date`: its secret in the registered
    /// method, or none for a public client.
    /// - Throws: ``ClientRegistrationError/secretExpired(clientID:expiredAt:)`` once the secret has
    ///   expired: the client must register again.
    public func authentication(at date: Date = Date()) throws(ClientRegistrationError) -> ClientAuthentication {
        if isSecretExpired(at: date), let expiry = clientSecretExpiresAt { throw .secretExpired(clientID: clientID, expiredAt: expiry) }
        guard let clientSecret else { return .none }
        return tokenEndpointAuthMethod.authentication(secret: clientSecret)
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id", clientSecret = "client_secret", clientSecretExpiresAt = "client_secret_expires_at"
        case clientIDIssuedAt = "client_id_issued_at", registrationAccessToken = "registration_access_token"
        case registrationClientURI = "registration_client_uri", tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case redirectURIs = "redirect_uris", clientName = "client_name"
    }

    /// Decodes a registration response, or a saved one: times in seconds since 1970 (`0`: never).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let time = { (key: CodingKeys) throws -> Date? in
            try container.decodeIfPresent(Double.self, forKey: key).flatMap { $0 == 0 ? nil : Date(timeIntervalSince1970: $0) }
        }
        clientID = try container.decode(String.self, forKey: .clientID)
        clientSecret = try container.decodeIfPresent(String.self, forKey: .clientSecret)
        clientSecretExpiresAt = try time(.clientSecretExpiresAt)
        clientIDIssuedAt = try time(.clientIDIssuedAt)
        registrationAccessToken = try container.decodeIfPresent(String.self, forKey: .registrationAccessToken)
        registrationClientURI = try container.decodeIfPresent(URL.self, forKey: .registrationClientURI)
        // RFC 7591 §2: client_secret_basic when the provider does not say.
        let method = try container.decodeIfPresent(String.self, forKey: .tokenEndpointAuthMethod)
        tokenEndpointAuthMethod = method.flatMap(SavedClient.AuthenticationMethod.init(rawValue:))
            ?? (clientSecret == nil ? .none : .clientSecretBasic)
        redirectURIs = try container.decodeIfPresent([String].self, forKey: .redirectURIs) ?? []
        clientName = try container.decodeIfPresent(String.self, forKey: .clientName)
    }

    /// Encodes it with RFC 7591's names and times.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(clientID, forKey: .clientID)
        try container.encodeIfPresent(clientSecret, forKey: .clientSecret)
        try container.encode(clientSecretExpiresAt?.timeIntervalSince1970 ?? 0, forKey: .clientSecretExpiresAt)
        try container.encodeIfPresent(clientIDIssuedAt?.timeIntervalSince1970, forKey: .clientIDIssuedAt)
        try container.encodeIfPresent(registrationAccessToken, forKey: .registrationAccessToken)
        try container.encodeIfPresent(registrationClientURI, forKey: .registrationClientURI)
        try container.encode(tokenEndpointAuthMethod, forKey: .tokenEndpointAuthMethod)
        try container.encode(redirectURIs, forKey: .redirectURIs)
        try container.encodeIfPresent(clientName, forKey: .clientName)
    }
}
