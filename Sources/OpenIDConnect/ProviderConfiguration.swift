import Foundation

/// Where a provider's endpoints are and what it supports: discovered from its issuer
/// (OpenID Connect Discovery 1.0) or given by hand (as for Azure AD B2C custom policies).
public struct ProviderConfiguration: Sendable, Hashable, Codable {
    /// The issuer identifier, exactly as the provider writes it in `iss`.
    public var issuer: String
    /// The authorization endpoint (the login page).
    public var authorizationEndpoint: URL
    /// The token endpoint.
    public var tokenEndpoint: URL
    /// The UserInfo endpoint, if any.
    public var userinfoEndpoint: URL?
    /// The RP-initiated logout endpoint, if any.
    public var endSessionEndpoint: URL?
    /// The JSON Web Key Set that signs ID tokens, if any.
    public var jwksURI: URL?
    /// The token revocation endpoint (RFC 7009), if any.
    public var revocationEndpoint: URL?
    /// The device authorization endpoint (RFC 8628), if any: where ``DeviceAuthorization`` asks for a user code.
    public var deviceAuthorizationEndpoint: URL?
    /// Whether authorization responses carry `iss` (RFC 9207); then it is required.
    public var authorizationResponseIssParameterSupported: Bool?
    /// PKCE methods the provider supports, if it says.
    public var codeChallengeMethodsSupported: [String]?
    /// Signing algorithms the provider uses for ID tokens, if it says.
    public var idTokenSigningAlgValuesSupported: [String]?
    /// How clients may authenticate at the token endpoint (`client_secret_basic`, `private_key_jwt`...),
    /// if the provider says: ``ClientAuthentication/clientSecret(secret:)`` picks from it.
    public var tokenEndpointAuthMethodsSupported: [String]?
    /// The pushed authorization request endpoint (RFC 9126), if any.
    public var pushedAuthorizationRequestEndpoint: URL?
    /// Whether the provider accepts authorization requests only through its pushed authorization
    /// request endpoint (RFC 9126 §5); then a sign-in always pushes its request.
    public var requirePushedAuthorizationRequests: Bool?
    /// The client registration endpoint (RFC 7591, OpenID Connect Dynamic Client Registration
    /// 1.0), if the provider lets clients register themselves.
    public var registrationEndpoint: URL?

    /// A configuration given by hand.
    public init(issuer: String, authorizationEndpoint: URL, tokenEndpoint: URL, userinfoEndpoint: URL? = nil,
                endSessionEndpoint: URL? = nil, jwksURI: URL? = nil, revocationEndpoint: URL? = nil,
                authorizationResponseIssParameterSupported: Bool? = nil) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.endSessionEndpoint = endSessionEndpoint
        self.jwksURI = jwksURI
        self.revocationEndpoint = revocationEndpoint
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
    }

    /// Fetches `ISSUER/.well-known/openid-configuration` and checks that the document is the
    /// issuer's own: its `issuer` must equal `issuer` exactly (Discovery 1.0 §4.3). The issuer,
    /// every endpoint and the `jwks_uri` must be https unless the issuer is loopback
    /// (``checkTransportSecurity(allowInsecureHTTP:)``); a plain http issuer is refused before it is asked.
    /// - Parameters:
    ///   - issuer: the issuer URL, as the provider names itself.
    ///   - allowInsecureHTTP: accept plain `http` from an issuer that is not loopback.
    ///   - http: the HTTP client that fetches the document.
    /// - Throws: ``OpenIDConnectError/issuerMismatch(expected:actual:)``, ``OpenIDConnectError/insecureEndpoint(name:url:)``,
    ///   ``OpenIDConnectError/http(_:)``, ``OpenIDConnectError/unexpectedResponse(url:status:contentType:snippet:)``.
    public static func discover(issuer: String, allowInsecureHTTP: Bool = false, using http: any HTTPClient)
        async throws(OpenIDConnectError) -> ProviderConfiguration {
        var base = issuer
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + "/.well-known/openid-configuration"), url.scheme != nil else {
            throw .issuerMismatch(expected: issuer, actual: "(not a URL)")
        }
        try checkTransportSecurity(issuer: issuer, allowInsecureHTTP: allowInsecureHTTP)
        let response: HTTPResponse
        do { response = try await http.send(HTTPRequest(url: url, headers: ["Accept": "application/json"])) } catch {
            throw .http(error)
        }
        let configuration = try JSONResponse.decode(ProviderConfiguration.self, from: response, url: url)
        guard configuration.issuer == issuer else { throw .issuerMismatch(expected: issuer, actual: configuration.issuer) }
        try configuration.checkTransportSecurity(allowInsecureHTTP: allowInsecureHTTP)
        return configuration
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case jwksURI = "jwks_uri"
        case revocationEndpoint = "revocation_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case registrationEndpoint = "registration_endpoint"
    }
}
