import Foundation
import OpenIDConnect
import OpenIDSignIn

/// An OpenID Connect relying party that signs in through the embedded engine.
///
/// ```swift
/// let client = OpenIDConnectClient(issuer: "https://id.example.com", clientID: "my-app",
///                                  redirectURI: try RedirectURI("com.example.app:/oauth2redirect"))
/// let result = try await client.signIn(scopes: ["openid", "profile", "offline_access"])
/// print(result.idToken.subject)
/// ```
///
/// `signIn` discovers the provider (once; the document is cached), sends an authorization request
/// with PKCE S256, `state` and `nonce`, shows it in a ``WebAuthenticationSession``, checks the
/// response (`iss`, `state`, error, response mode), exchanges the code, and validates the ID token.
/// The flow is `OpenIDClient`'s (OpenIDSignIn, no WebKit), through a ``WebAuthenticationUserAgent``
/// or a `SystemBrowserUserAgent`; this type keeps the engine's options, scripts and errors.
public actor OpenIDConnectClient {
    /// Where the provider's configuration comes from.
    public typealias Provider = OpenIDClient.Provider

    /// The client the sign-ins run through.
    private nonisolated let client: OpenIDClient
    /// The provider.
    public nonisolated var provider: Provider { client.provider }
    /// This client's ID.
    public nonisolated var clientID: String { client.clientID }
    /// The registered redirect URI.
    public nonisolated var redirectURI: RedirectURI { client.redirectURI }
    /// How the client authenticates at the token endpoint. Default: none (public client).
    public nonisolated var authentication: ClientAuthentication { client.authentication }
    /// Whether plain `http` is accepted from a provider whose issuer is not loopback. Default: no;
    /// the issuer, the endpoints and the `jwks_uri` must then be https.
    public nonisolated var allowInsecureHTTP: Bool { client.allowInsecureHTTP }
    /// Whether sign-ins push their authorization request first (PAR, RFC 9126) even when the
    /// provider does not require it. Default: only when its discovery document says
    /// `require_pushed_authorization_requests`.
    public nonisolated var pushAuthorizationRequests: Bool { client.pushAuthorizationRequests }
    /// Whether sign-ins ask for DPoP-bound tokens (RFC 9449): each makes a key, proves possession
    /// of it at the token endpoint, and keeps it in its `AuthState` for refreshes and resource requests.
    public nonisolated var dpop: Bool { client.dpop }
    /// The client's `id_token_signed_response_alg`, if it registered one: every ID token must be
    /// signed with it (or, for `none`, be unsigned and come from the token endpoint over https in
    /// the code flow). Default: any asymmetric algorithm, and HMAC with the client secret when it has one.
    public nonisolated var idTokenSigning: IDTokenSigning? { client.idTokenSigning }

    /// A client. Nothing is fetched until the first call that needs the provider.
    public init(provider: Provider, clientID: String, redirectURI: RedirectURI,
                authentication: ClientAuthentication = .none, allowInsecureHTTP: Bool = false,
                pushAuthorizationRequests: Bool = false, dpop: Bool = false, idTokenSigning: IDTokenSigning? = nil,
                http: any HTTPClient = URLSessionHTTPClient()) {
        client = OpenIDClient(provider: provider, clientID: clientID, redirectURI: redirectURI, authentication: authentication,
                              allowInsecureHTTP: allowInsecureHTTP, pushAuthorizationRequests: pushAuthorizationRequests,
                              dpop: dpop, idTokenSigning: idTokenSigning, http: http)
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
    /// WebFinger for a `OpenIDClient.Provider.user(_:)`), after checking that it is https
    /// (`ProviderConfiguration.checkTransportSecurity`).
    /// - Throws: `OpenIDConnectError.insecureEndpoint`, `OpenIDConnectError.webFinger`, or discovery's errors.
    public func providerConfiguration() async throws(OpenIDConnectError) -> ProviderConfiguration {
        try await client.providerConfiguration()
    }

    /// Signs in: one call from nothing to validated tokens.
    /// - Parameters:
    ///   - scopes: the scopes (`openid` is added if missing).
    ///   - responseType: `code` (default), or an implicit/hybrid type for providers that need one.
    ///   - responseMode: `nil` for the response type's default, or `form_post`.
    ///   - additionalParameters: `acr_values`, `prompt`, `login_hint`, `ui_locales`, `max_age`...
    ///   - options: how the sign-in page is shown; its ``WebAuthenticationOptions/languages`` also
    ///     go out as `ui_locales` unless `additionalParameters` has one.
    ///   - script: runs beside the page while it waits (a login script for tests and harnesses).
    /// - Throws: ``SignInError``.
    public func signIn(scopes: [String] = ["openid"],
                       responseType: AuthorizationRequest.ResponseType = .code,
                       responseMode: AuthorizationRequest.ResponseMode? = nil,
                       additionalParameters: [String: String] = [:],
                       options: WebAuthenticationOptions = WebAuthenticationOptions(),
                       script: (@Sendable (WebAuthenticationSession) async throws -> Void)? = nil) async throws(SignInError) -> SignInResult {
        try await mapping(await client.signIn(using: WebAuthenticationUserAgent(options: options, script: script), scopes: scopes,
                                              responseType: responseType, responseMode: responseMode,
                                              additionalParameters: additionalParameters),
                          as: { SignInError($0) })
    }

    /// Signs in in the person's own browser (RFC 8252), for providers that refuse embedded views:
    /// the same request (PKCE, `state`, `nonce`) with the redirect URI
    /// `http://127.0.0.1:PORT/redirectPath` on a free port, opened with `browser`; the checks,
    /// the exchange and the validation are the same as ``signIn(scopes:responseType:responseMode:additionalParameters:options:script:)``'s.
    /// Register `http://127.0.0.1/redirectPath` with the provider (any port, RFC 8252 §7.3).
    ///
    /// ```swift
    /// do { result = try await client.signIn() }
    /// catch .session(.embeddedViewRefused) { result = try await client.signInWithSystemBrowser() }
    /// ```
    /// - Throws: ``SignInError``.
    public func signInWithSystemBrowser(scopes: [String] = ["openid"], additionalParameters: [String: String] = [:],
                                        redirectPath: String = "/callback", browser: SystemBrowser = .desktopDefault,
                                        timeout: Duration = .seconds(300)) async throws(SignInError) -> SignInResult {
        let agent = SystemBrowserUserAgent(redirectPath: redirectPath, browser: browser, timeout: timeout)
        return try await mapping(await client.signIn(using: agent, scopes: scopes, additionalParameters: additionalParameters),
                                 as: { SignInError($0) })
    }

    /// Signs out at the provider (RP-Initiated Logout): shows its end-session page with the ID
    /// token as a hint and catches the redirect back to `postLogoutRedirectURI` (by default the
    /// sign-in redirect URI), checking its `state`. With a persistent profile, `clearWebsiteData`
    /// also deletes the profile's cookies and storage; `store`, if given, is emptied. `script`
    /// runs beside the page, as in ``signIn(scopes:responseType:responseMode:additionalParameters:options:script:)``:
    /// for a provider that asks "Do you want to sign out?".
    /// - Returns: `state`, marked as signed out.
    /// - Throws: ``SignInError``; `OpenIDConnectError.missingEndpoint` when the provider has no end-session endpoint.
    public func signOut(_ state: AuthState, postLogoutRedirectURI: RedirectURI? = nil, options: WebAuthenticationOptions = WebAuthenticationOptions(),
                        clearWebsiteData: Bool = false, store: (any AuthStateStore)? = nil,
                        script: (@Sendable (WebAuthenticationSession) async throws -> Void)? = nil) async throws(SignInError) -> AuthState {
        try await mapping(await client.signOut(state, using: WebAuthenticationUserAgent(options: options, script: script),
                                               postLogoutRedirectURI: postLogoutRedirectURI, clearWebsiteData: clearWebsiteData,
                                               store: store),
                          as: { SignInError($0) })
    }

    /// Signs in with the device authorization grant (RFC 8628): `OpenIDClient.deviceAuthorization(scopes:additionalParameters:endpoint:)`.
    /// - Throws: `DeviceAuthorizationError.noEndpoint(issuer:)`; discovery's errors as
    ///   `DeviceAuthorizationError.openIDConnect(_:)`.
    public func deviceAuthorization(scopes: [String] = ["openid"], additionalParameters: [String: String] = [:],
                                    endpoint: URL? = nil) async throws(DeviceAuthorizationError) -> DeviceAuthorizationStates {
        try await client.deviceAuthorization(scopes: scopes, additionalParameters: additionalParameters, endpoint: endpoint)
    }

    /// Registers a native client at the provider (RFC 7591): `OpenIDClient.register(provider:redirectURIs:clientName:authenticationMethod:scopes:initialAccessToken:allowInsecureHTTP:http:)`.
    /// - Throws: `OpenIDConnectError`: `.registration`, or discovery's errors.
    public static func register(provider: Provider, redirectURIs: [RedirectURI], clientName: String? = nil,
                                authenticationMethod: SavedClient.AuthenticationMethod = .none, scopes: [String]? = nil,
                                initialAccessToken: String? = nil, allowInsecureHTTP: Bool = false,
                                http: any HTTPClient = URLSessionHTTPClient()) async throws(OpenIDConnectError)
        -> (configuration: ProviderConfiguration, client: RegisteredClient) {
        try await OpenIDClient.register(provider: provider, redirectURIs: redirectURIs, clientName: clientName,
                                        authenticationMethod: authenticationMethod, scopes: scopes,
                                        initialAccessToken: initialAccessToken, allowInsecureHTTP: allowInsecureHTTP, http: http)
    }
}
