import Foundation
import OpenIDConnect
import OpenIDConnectURLSession

/// An OpenID Connect relying party that signs in through any ``AuthorizationUserAgent``: the
/// person's browser (``SystemBrowserUserAgent``), WebAuthSession's embedded engine, or your own.
///
/// ```swift
/// let client = OpenIDClient(issuer: "https://id.example.com", clientID: "my-app",
///                           redirectURI: try RedirectURI("http://127.0.0.1/callback"))
/// let result = try await client.signIn(using: SystemBrowserUserAgent(), scopes: ["openid", "profile"])
/// print(result.idToken.subject)
/// ```
///
/// `signIn` discovers the provider (once; the document is cached), asks the agent for the
/// redirect URI, builds an authorization request with PKCE S256, `state` and `nonce` (pushed
/// first, RFC 9126, when asked or required), has the agent present it, checks the response
/// (`iss`, `state`, error, response mode), exchanges the code, and validates the ID token.
/// Refreshing the tokens afterwards is `AuthStateManager`'s, in OpenIDConnect.
public actor OpenIDClient {
    /// Where the provider's configuration comes from.
    public enum Provider: Sendable {
        /// Discovered from the issuer on first use.
        case issuer(String)
        /// Given by hand.
        case configuration(ProviderConfiguration)
        /// The issuer that serves a person, found by WebFinger (OpenID Connect Discovery 1.0 §2,
        /// `WebFingerQuery`) from what they typed (`alice@example.com`, `acct:…`, a URL), then
        /// discovered, on first use.
        case user(String)
    }

    /// The provider.
    public nonisolated let provider: Provider
    /// This client's ID.
    public nonisolated let clientID: String
    /// The registered redirect URI (an agent may replace it: ``AuthorizationUserAgent/redirectURI(for:)``).
    public nonisolated let redirectURI: RedirectURI
    /// How the client authenticates at the token endpoint. Default: none (public client).
    public nonisolated let authentication: ClientAuthentication
    /// Whether plain `http` is accepted from a provider whose issuer is not loopback. Default: no;
    /// the issuer, the endpoints and the `jwks_uri` must then be https.
    public nonisolated let allowInsecureHTTP: Bool
    /// Whether sign-ins push their authorization request first (PAR, RFC 9126) even when the
    /// provider does not require it. Default: only when its discovery document says
    /// `require_pushed_authorization_requests`.
    public nonisolated let pushAuthorizationRequests: Bool
    /// Whether sign-ins ask for DPoP-bound tokens (RFC 9449): each makes a key, proves possession
    /// of it at the token endpoint, and keeps it in its `AuthState` for refreshes and resource requests.
    public nonisolated let dpop: Bool
    /// The client's `id_token_signed_response_alg`, if it registered one: every ID token must be
    /// signed with it (or, for `none`, be unsigned and come from the token endpoint over https in
    /// the code flow). Default: any asymmetric algorithm, and HMAC with the client secret when it has one.
    public nonisolated let idTokenSigning: IDTokenSigning?
    /// The HTTP client every request goes through.
    public nonisolated let http: any HTTPClient
    private var configuration: ProviderConfiguration?
    private var validator: IDTokenValidator?

    /// A client. Nothing is fetched until the first call that needs the provider.
    public init(provider: Provider, clientID: String, redirectURI: RedirectURI,
                authentication: ClientAuthentication = .none, allowInsecureHTTP: Bool = false,
                pushAuthorizationRequests: Bool = false, dpop: Bool = false, idTokenSigning: IDTokenSigning? = nil,
                http: any HTTPClient = URLSessionHTTPClient()) {
        self.provider = provider
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.authentication = authentication
        self.allowInsecureHTTP = allowInsecureHTTP
        self.pushAuthorizationRequests = pushAuthorizationRequests
        self.dpop = dpop
        self.idTokenSigning = idTokenSigning
        self.http = http
    }

    /// A client of the provider at `issuer`, discovered on first use.
    public init(issuer: String, clientID: String, redirectURI: RedirectURI, authentication: ClientAuthentication = .none,
                allowInsecureHTTP: Bool = false, pushAuthorizationRequests: Bool = false, dpop: Bool = false,
                idTokenSigning: IDTokenSigning? = nil, http: any HTTPClient = URLSessionHTTPClient()) {
        self.init(provider: .issuer(issuer), clientID: clientID, redirectURI: redirectURI, authentication: authentication,
                  allowInsecureHTTP: allowInsecureHTTP, pushAuthorizationRequests: pushAuthorizationRequests, dpop: dpop,
                  idTokenSigning: idTokenSigning, http: http)
    }

    /// The provider's configuration: the given one, or the discovery document (fetched once, after
    /// WebFinger for a ``Provider/user(_:)``), after checking that it is https
    /// (`ProviderConfiguration.checkTransportSecurity`).
    /// - Throws: `OpenIDConnectError.insecureEndpoint`, `OpenIDConnectError.webFinger`, or discovery's errors.
    public func providerConfiguration() async throws(OpenIDConnectError) -> ProviderConfiguration {
        if let configuration { return configuration }
        let checked = try await Self.configuration(of: provider, allowInsecureHTTP: allowInsecureHTTP, using: http)
        configuration = checked
        return checked
    }

    /// `provider`'s configuration, checked against the transport rule: the given one, or the
    /// discovery document of the issuer (found by WebFinger for a ``Provider/user(_:)``).
    static func configuration(of provider: Provider, allowInsecureHTTP: Bool, using http: any HTTPClient) async throws(OpenIDConnectError) -> ProviderConfiguration {
        switch provider {
        case .issuer(let issuer):
            return try await ProviderConfiguration.discover(issuer: issuer, allowInsecureHTTP: allowInsecureHTTP, using: http)
        case .configuration(let given):
            try given.checkTransportSecurity(allowInsecureHTTP: allowInsecureHTTP)
            return given
        case .user(let user):
            let query: WebFingerQuery
            do { query = try WebFingerQuery(user: user) } catch { throw .webFinger(error) }
            let issuer = try await query.issuer(allowInsecureHTTP: allowInsecureHTTP, using: http)
            return try await ProviderConfiguration.discover(issuer: issuer, allowInsecureHTTP: allowInsecureHTTP, using: http)
        }
    }

    /// Signs in through `agent`: one call from nothing to validated tokens.
    /// - Parameters:
    ///   - agent: what shows the provider's page; its ``AuthorizationUserAgent/languages`` also go
    ///     out as `ui_locales` unless `additionalParameters` has one.
    ///   - scopes: the scopes (`openid` is added if missing).
    ///   - responseType: `code` (default), or an implicit/hybrid type for providers that need one.
    ///   - responseMode: `nil` for the response type's default, or `form_post`.
    ///   - additionalParameters: `acr_values`, `prompt`, `login_hint`, `ui_locales`, `max_age`...
    /// - Throws: ``OpenIDClientError``.
    public func signIn(using agent: some AuthorizationUserAgent, scopes: [String] = ["openid"],
                       responseType: AuthorizationRequest.ResponseType = .code,
                       responseMode: AuthorizationRequest.ResponseMode? = nil,
                       additionalParameters: [String: String] = [:]) async throws(OpenIDClientError) -> SignInResult {
        let configuration = try await mapping(await providerConfiguration(), as: OpenIDClientError.openIDConnect)
        var parameters = additionalParameters
        let languages = agent.languages
        if !languages.isEmpty, parameters["ui_locales"] == nil { parameters["ui_locales"] = languages.joined(separator: " ") }
        let redirect = try await mapping(await agent.redirectURI(for: redirectURI), as: OpenIDClientError.userAgent)
        let request = AuthorizationRequest(clientID: clientID, redirectURI: redirect, responseType: responseType,
                                           responseMode: responseMode, scopes: scopes, additionalParameters: parameters)
        let url = try await mapping(await startURL(of: request, configuration), as: OpenIDClientError.openIDConnect)
        // Fetched while the page is shown, not after the redirect (a provider without a key set
        // fails at validation, as before).
        await (try? idTokenValidator(configuration))?.prefetchKeys()
        // The state is passed on its own: a pushed request's URL does not carry it.
        let presentation = AuthorizationPresentation(url: url, redirectURI: redirect, expectedState: request.state, purpose: .authorization)
        let callback = try await mapping(await agent.present(presentation), as: OpenIDClientError.userAgent)
        return try await mapping(await complete(callback, request: request, configuration: configuration), as: OpenIDClientError.openIDConnect)
    }

    /// The URL that starts `request`'s sign-in: the request pushed first (RFC 9126) when this
    /// client asks for it or the provider requires it, else the authorization URL with every parameter.
    private func startURL(of request: AuthorizationRequest, _ configuration: ProviderConfiguration) async throws(OpenIDConnectError) -> URL {
        guard PushedAuthorizationRequest.isUsed(asked: pushAuthorizationRequests, by: configuration) else {
            return request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        }
        return try await PushedAuthorizationRequest(configuration: configuration, authentication: authentication, http: http).push(request)
    }

    /// Reads the redirect `callback` as the response to `request`, then exchanges its code and
    /// validates the ID token.
    private func complete(_ callback: RedirectCallback, request: AuthorizationRequest,
                          configuration: ProviderConfiguration) async throws(OpenIDConnectError) -> SignInResult {
        let response = try AuthorizationResponse(callback: callback, request: request, configuration: configuration)
        let validator = try idTokenValidator(configuration)
        var tokens: TokenResponse?
        let rawIDToken: String
        var frontChannelIDToken: IDToken?
        let dpopKey = dpop ? DPoPKey() : nil
        if let code = response.code {
            if let frontChannel = response.idToken {
                frontChannelIDToken = try await validate(frontChannel, with: validator, for: request, code: code)
            }
            let exchanged = try await TokenEndpoint(configuration: configuration, clientID: clientID, authentication: authentication,
                                                    dpop: dpopKey, http: http).exchange(code: code, for: request)
            guard let idToken = exchanged.idToken else { throw .missingParameter("id_token") }
            tokens = exchanged
            rawIDToken = idToken
        } else {
            guard let idToken = response.idToken else { throw .missingParameter("id_token") }
            rawIDToken = idToken
        }
        // Only the code flow's token response may be unsigned (Core §3.1.3.7), never the hybrid flow's.
        let source: IDTokenSource = request.responseType == .code && tokens != nil ? .codeFlowTokenEndpoint : .other
        let idToken = try await validate(rawIDToken, with: validator, for: request, accessToken: tokens == nil ? response.accessToken : nil,
                                         frontChannel: frontChannelIDToken, source: source)
        return SignInResult(configuration: configuration, request: request, authorizationResponse: response,
                            tokens: tokens, idToken: idToken, dpopKey: tokens == nil ? nil : dpopKey)
    }

    /// Validates `token` against `request`: its nonce, and `auth_time` when it asked for `max_age` or `prompt=login`.
    private func validate(_ token: String, with validator: IDTokenValidator, for request: AuthorizationRequest,
                          accessToken: String? = nil, code: String? = nil,
                          frontChannel: IDToken? = nil, source: IDTokenSource = .other) async throws(OpenIDConnectError) -> IDToken {
        try await mapping(await validator.validate(token, nonce: request.nonce, accessToken: accessToken, code: code,
                                             authTime: request.authTimeRequirement, frontChannel: frontChannel, source: source),
                          as: OpenIDConnectError.idToken)
    }

    private func idTokenValidator(_ configuration: ProviderConfiguration) throws(OpenIDConnectError) -> IDTokenValidator {
        if let validator { return validator }
        let made = try IDTokenValidator(configuration: configuration, clientID: clientID, clientSecret: authentication.secret,
                                        signing: idTokenSigning, http: http)
        validator = made
        return made
    }
}
