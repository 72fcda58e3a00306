/// A checked authorization response: what the redirect carried, once it has passed the checks
/// of RFC 6749 §4.1.2 and §10.12, RFC 9207 and OpenID Connect Core §3.
public struct AuthorizationResponse: Sendable, Hashable, Codable {
    /// The authorization code (`code` response types).
    public let code: String?
    /// An access token from the front channel (`token` response types).
    public let accessToken: String?
    /// Its type, normally `Bearer`.
    public let tokenType: String?
    /// Its lifetime in seconds, if given.
    public let expiresIn: Int?
    /// An ID token from the front channel (not yet validated; see ``IDTokenValidator``).
    public let idToken: String?
    /// The granted scopes, if the provider says.
    public let scope: String?

    /// Checks `callback` against the `request` it answers, in this order: `iss` (required when
    /// the provider advertises it, checked whenever present), `state`, an `error` response, and
    /// the parameters the response type requires, each from the place the response mode puts it.
    /// - Throws: ``OpenIDConnectError/responseIssuerMismatch(expected:actual:)``,
    ///   ``OpenIDConnectError/stateMismatch``, ``OpenIDConnectError/authorization(_:)``,
    ///   ``OpenIDConnectError/missingParameter(_:)``,
    ///   ``OpenIDConnectError/responseModeMismatch(parameter:expected:actual:)``.
    public init(callback: RedirectCallback, request: AuthorizationRequest,
                configuration: ProviderConfiguration) throws(OpenIDConnectError) {
        let iss = callback["iss"]
        if iss != nil || configuration.authorizationResponseIssParameterSupported == true {
            guard iss == configuration.issuer else {
                throw .responseIssuerMismatch(expected: configuration.issuer, actual: iss)
            }
        }
        guard callback["state"] == request.state else { throw .stateMismatch }
        if let error = callback["error"] {
            throw .authorization(OAuthError(error: error, errorDescription: callback["error_description"],
                                            errorURI: callback["error_uri"]))
        }
        let expected: RedirectCallback.Source = switch request.responseMode ?? request.responseType.defaultResponseMode {
        case .query: .query
        case .fragment: .fragment
        case .formPost: .formPost
        }
        for (name, parameter) in callback.parameters where parameter.source != expected {
            throw .responseModeMismatch(parameter: name, expected: expected, actual: parameter.source)
        }
        let type = request.responseType
        func required(_ name: String, when needed: Bool) throws(OpenIDConnectError) -> String? {
            guard needed else { return callback[name] }
            guard let value = callback[name], !value.isEmpty else { throw .missingParameter(name) }
            return value
        }
        code = try required("code", when: type.includesCode)
        idToken = try required("id_token", when: type.includesIDToken)
        accessToken = try required("access_token", when: type.includesAccessToken)
        tokenType = try required("token_type", when: type.includesAccessToken)
        expiresIn = callback["expires_in"].flatMap { Int($0) }
        scope = callback["scope"]
    }

    enum CodingKeys: String, CodingKey {
        case code, accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in"
        case idToken = "id_token", scope
    }
}
