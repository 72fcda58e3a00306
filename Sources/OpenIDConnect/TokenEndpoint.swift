import Foundation

/// Requests to the token and revocation endpoints: code exchange (with the PKCE verifier),
/// refresh, and revocation (RFC 7009), with the client's authentication.
public struct TokenEndpoint: Sendable {
    /// The provider.
    public let configuration: ProviderConfiguration
    /// This client's ID.
    public let clientID: String
    /// How this client authenticates.
    public let authentication: ClientAuthentication
    /// The key that makes token requests DPoP-bound (RFC 9449), if any: each carries a proof.
    public let dpop: DPoPKey?
    private let http: any HTTPClient

    /// A token endpoint client.
    public init(configuration: ProviderConfiguration, clientID: String, authentication: ClientAuthentication = .none,
                dpop: DPoPKey? = nil, http: any HTTPClient) {
        self.configuration = configuration
        self.clientID = clientID
        self.authentication = authentication
        self.dpop = dpop
        self.http = http
    }

    /// Exchanges the code of `response` for tokens, proving possession with `request`'s PKCE verifier.
    /// - Throws: ``OpenIDConnectError/token(_:)`` for the provider's OAuth errors (`invalid_grant`:
    ///   the code was used or expired), ``OpenIDConnectError/http(_:)``,
    ///   ``OpenIDConnectError/unexpectedResponse(url:status:contentType:snippet:)``.
    public func exchange(code: String, for request: AuthorizationRequest) async throws(OpenIDConnectError) -> TokenResponse {
        var form: [(name: String, value: String)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", request.redirectURI.string),
        ]
        if let pkce = request.pkce { form.append(("code_verifier", pkce.verifier)) }
        return try await tokenRequest(form)
    }

    /// Uses `refreshToken` for new tokens; `scopes` narrows them (default: as granted), and each of
    /// `resources` names a resource server the access token is for (RFC 8707 `resource`).
    public func refresh(refreshToken: String, scopes: [String]? = nil, resources: [String] = []) async throws(OpenIDConnectError) -> TokenResponse {
        var form: [(name: String, value: String)] = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scopes { form.append(("scope", scopes.joined(separator: " "))) }
        form += resources.map { ("resource", $0) }
        return try await tokenRequest(form)
    }

    /// Asks whether the person has approved `deviceCode` (RFC 8628 §3.4): the tokens once they
    /// have; until then ``OpenIDConnectError/token(_:)`` with the grant's own errors
    /// (`authorization_pending`, `slow_down`, `expired_token`, `access_denied`), which
    /// ``DeviceAuthorization`` turns into its states.
    public func exchange(deviceCode: String) async throws(OpenIDConnectError) -> TokenResponse {
        try await tokenRequest([("grant_type", DeviceAuthorization.grantType), ("device_code", deviceCode)])
    }

    /// Revokes `token` (RFC 7009). `hint` is `access_token` or `refresh_token`.
    /// - Throws: ``OpenIDConnectError/missingEndpoint(_:)`` when the provider has no revocation endpoint.
    public func revoke(_ token: String, hint: String? = nil) async throws(OpenIDConnectError) {
        guard let endpoint = configuration.revocationEndpoint else { throw .missingEndpoint("revocation_endpoint") }
        var form: [(name: String, value: String)] = [("token", token)]
        if let hint { form.append(("token_type_hint", hint)) }
        let response = try await post(form, to: endpoint)
        guard response.status == 200 else { throw Self.error(from: response, url: endpoint) }
    }

    /// A token request; with a DPoP key, a proof goes with it, and a demanded nonce is used once.
    private func tokenRequest(_ form: [(name: String, value: String)]) async throws(OpenIDConnectError) -> TokenResponse {
        let url = configuration.tokenEndpoint
        let response = try await DPoPNonce.retrying(url) { nonce throws(OpenIDConnectError) -> HTTPResponse in
            try await post(form, to: url, headers: try dpopHeader(url: url, nonce: nonce))
        }
        guard response.status == 200 else { throw Self.error(from: response, url: url) }
        var tokens = try JSONResponse.decode(TokenResponse.self, from: response, url: url)
        tokens.receivedAt = Date()
        return tokens
    }

    /// The `DPoP` header of a token request, when this client has a key.
    private func dpopHeader(url: URL, nonce: String?) throws(OpenIDConnectError) -> [String: String] {
        guard let dpop else { return [:] }
        do { return ["DPoP": try dpop.proof(method: "POST", url: url, nonce: nonce)] } catch { throw .dpop(error) }
    }

    /// POSTs `form` to `url` with the client's authentication, in the method the provider asks for
    /// when the client left it to it (``ClientAuthentication/resolved(for:)``). A client
    /// assertion's `aud` is the token endpoint there, the issuer elsewhere (RFC 7523 §3, RFC 9126 §2).
    func post(_ form: [(name: String, value: String)], to url: URL, headers extra: [String: String] = [:]) async throws(OpenIDConnectError) -> HTTPResponse {
        var form = form
        var headers = extra.merging(["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"]) { $1 }
        let audience = url == configuration.tokenEndpoint ? url.absoluteString : configuration.issuer
        try await authentication.resolved(for: configuration).apply(clientID: clientID, audience: audience, to: &form, headers: &headers)
        do {
            return try await http.send(HTTPRequest(method: "POST", url: url, headers: headers, body: Data(FormURLEncoding.encode(form).utf8)))
        } catch {
            throw .http(error)
        }
    }

    /// An OAuth error body (RFC 6749 §5.2) as ``OpenIDConnectError/token(_:)``; anything else as
    /// an unexpected response.
    static func error(from response: HTTPResponse, url: URL) -> OpenIDConnectError {
        guard (400..<600).contains(response.status),
              let body = try? JSONDecoder().decode(OAuthErrorBody.self, from: response.body) else {
            return JSONResponse.unexpected(response, url: url)
        }
        return .token(OAuthError(error: body.error, errorDescription: body.errorDescription, errorURI: body.errorURI,
                                 httpStatus: response.status))
    }

    private struct OAuthErrorBody: Decodable {
        let error: String
        let errorDescription: String?
        let errorURI: String?
        enum CodingKeys: String, CodingKey { case error, errorDescription = "error_description", errorURI = "error_uri" }
    }
}
