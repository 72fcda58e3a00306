import Foundation

/// The metadata a native client registers itself with (RFC 7591 §2, OpenID Connect Dynamic
/// Client Registration 1.0 §2): its redirect URIs, name, how it authenticates at the token
/// endpoint, the grants it uses, and `application_type` `native`.
public struct ClientRegistrationRequest: Sendable, Hashable, Encodable {
    /// The redirect URIs, matched exactly by the provider.
    public var redirectURIs: [String]
    /// The name shown to people on the consent page, if any.
    public var clientName: String?
    /// How the client will authenticate at the token endpoint: `none` (a public client, the
    /// default for a native app, RFC 8252 §8.4), `client_secret_basic` or `client_secret_post`.
    public var tokenEndpointAuthMethod: SavedClient.AuthenticationMethod
    /// The grants it uses: the authorization code and refresh grants.
    public var grantTypes: [String] = ["authorization_code", "refresh_token"]
    /// The response types it uses.
    public var responseTypes: [String] = ["code"]
    /// The scopes it may ask for (space-separated), if it names them.
    public var scope: String?
    /// `native`: its redirect URIs may be custom schemes or loopback http (Dynamic Client Registration §2).
    public var applicationType = "native"

    /// A request for a client with `redirectURIs`.
    public init(redirectURIs: [String], clientName: String? = nil, tokenEndpointAuthMethod: SavedClient.AuthenticationMethod = .none,
                scope: String? = nil) {
        self.redirectURIs = redirectURIs
        self.clientName = clientName
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.scope = scope
    }

    enum CodingKeys: String, CodingKey {
        case redirectURIs = "redirect_uris", clientName = "client_name", tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case grantTypes = "grant_types", responseTypes = "response_types", scope, applicationType = "application_type"
    }
}
