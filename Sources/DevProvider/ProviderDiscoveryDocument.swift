import OpenIDConnect

/// The provider's discovery document (OpenID Connect Discovery 1.0 §3): its endpoints under the
/// issuer, and what it supports as its configuration says.
enum ProviderDiscoveryDocument {
    /// The document of the provider at `base` configured by `configuration`.
    static func json(issuer base: String, configuration: DevProviderConfiguration) -> JSONValue {
        return .object([
            "issuer": .string(base),
            "authorization_endpoint": .string(base + "/authorize"),
            "token_endpoint": .string(base + "/token"),
            "userinfo_endpoint": .string(base + "/userinfo"),
            "revocation_endpoint": .string(base + "/revoke"),
            "introspection_endpoint": .string(base + "/introspect"),
            "device_authorization_endpoint": .string(base + "/device_authorization"),
            "end_session_endpoint": .string(base + "/logout"),
            "jwks_uri": .string(base + "/jwks"),
            "response_types_supported": .array([.string("code")]),
            "response_modes_supported": .array([.string("query"), .string("form_post")]),
            "grant_types_supported": .array(["authorization_code", "refresh_token", DeviceAuthorization.grantType].map { .string($0) }),
            "subject_types_supported": .array([.string("public")]),
            "id_token_signing_alg_values_supported": .array(["ES256", "HS256", "none"].map { .string($0) }),
            "code_challenge_methods_supported": .array([.string("S256")]),
            "token_endpoint_auth_methods_supported": .array(configuration.tokenEndpointAuthMethods.map { .string($0) }),
            "token_endpoint_auth_signing_alg_values_supported": .array(["ES256", "RS256", "PS256", "HS256"].map { .string($0) }),
            "scopes_supported": .array(["openid", "profile", "email", "offline_access"].map { .string($0) }),
            "claims_supported": .array(["sub", "name", "email", "preferred_username"].map { .string($0) }),
            "authorization_response_iss_parameter_supported": .bool(true),
            "dpop_signing_alg_values_supported": .array([.string("ES256")]),
            "pushed_authorization_request_endpoint": .string(base + "/par"),
            "registration_endpoint": .string(base + "/register"),
            "require_pushed_authorization_requests": .bool(configuration.requirePushedAuthorizationRequests),
        ])
    }
}
