import Foundation
import OpenIDConnect
import OpenIDConnectURLSession

extension OpenIDClient {
    /// Registers a native client at the provider (RFC 7591, OpenID Connect Dynamic Client
    /// Registration 1.0) and returns the provider's configuration and the registration, from which
    /// a client is made:
    ///
    /// ```swift
    /// let (configuration, registered) = try await OpenIDClient.register(
    ///     provider: .issuer("https://id.example.com"), redirectURIs: [try RedirectURI("http://127.0.0.1/cb")])
    /// let client = OpenIDClient(provider: .configuration(configuration), clientID: registered.clientID,
    ///                           redirectURI: try RedirectURI("http://127.0.0.1/cb"), authentication: try registered.authentication())
    /// ```
    /// Keep the `RegisteredClient` where tokens are kept (`AuthState.registration`): it holds
    /// the client secret and the registration access token.
    /// - Parameters:
    ///   - provider: the issuer, a configuration with a `registration_endpoint`, or a person (WebFinger).
    ///   - redirectURIs: the redirect URIs to register (a native app's custom scheme or loopback).
    ///   - clientName: the name the provider shows on its pages, if any.
    ///   - authenticationMethod: `none` (a public client, the default for a native app) or a secret's method.
    ///   - scopes: the scopes the client asks to be allowed, if it names them.
    ///   - initialAccessToken: the token a provider that restricts registration gave out, if it does.
    ///   - allowInsecureHTTP: accept a plain `http` provider that is not on loopback.
    ///   - http: the HTTP client the requests go through.
    /// - Throws: `OpenIDConnectError`: `.registration`, or discovery's errors.
    public static func register(provider: Provider, redirectURIs: [RedirectURI], clientName: String? = nil,
                                authenticationMethod: SavedClient.AuthenticationMethod = .none, scopes: [String]? = nil,
                                initialAccessToken: String? = nil, allowInsecureHTTP: Bool = false,
                                http: any HTTPClient = URLSessionHTTPClient()) async throws(OpenIDConnectError)
        -> (configuration: ProviderConfiguration, client: RegisteredClient) {
        let configuration = try await configuration(of: provider, allowInsecureHTTP: allowInsecureHTTP, using: http)
        let request = ClientRegistrationRequest(redirectURIs: redirectURIs.map(\.string), clientName: clientName,
                                                tokenEndpointAuthMethod: authenticationMethod, scope: scopes?.joined(separator: " "))
        return (configuration, try await request.register(at: configuration, initialAccessToken: initialAccessToken, using: http))
    }
}
