import Foundation

/// Pushed authorization requests (RFC 9126): the request's parameters go to the provider's
/// pushed authorization request endpoint over the back channel, with the client's
/// authentication, and the page is opened with only `client_id` and the `request_uri` the
/// provider gave. The parameters (PKCE challenge, `state`, `nonce`, scopes) then never travel in
/// the browser's URL, and the provider knows they come from the client.
public struct PushedAuthorizationRequest: Sendable {
    /// The provider.
    public let configuration: ProviderConfiguration
    /// How the client authenticates at the endpoint (as at the token endpoint).
    public let authentication: ClientAuthentication
    private let http: any HTTPClient

    /// A client of `configuration`'s pushed authorization request endpoint.
    public init(configuration: ProviderConfiguration, authentication: ClientAuthentication = .none,
                http: any HTTPClient) {
        self.configuration = configuration
        self.authentication = authentication
        self.http = http
    }

    /// Whether a sign-in must push its request: when asked to, or when the provider requires it.
    public static func isUsed(asked: Bool, by configuration: ProviderConfiguration) -> Bool {
        asked || configuration.requirePushedAuthorizationRequests == true
    }

    /// Pushes `request` and returns the URL that starts the sign-in: the authorization endpoint
    /// with `client_id` and `request_uri` only.
    /// - Throws: ``OpenIDConnectError/missingEndpoint(_:)`` when the provider has no
    ///   `pushed_authorization_request_endpoint`; ``OpenIDConnectError/pushedAuthorizationRefused(_:)``
    ///   with the provider's OAuth error; ``OpenIDConnectError/http(_:)``,
    ///   ``OpenIDConnectError/unexpectedResponse(url:status:contentType:snippet:)``.
    public func push(_ request: AuthorizationRequest) async throws(OpenIDConnectError) -> URL {
        guard let endpoint = configuration.pushedAuthorizationRequestEndpoint else {
            throw .missingEndpoint("pushed_authorization_request_endpoint")
        }
        let tokens = TokenEndpoint(configuration: configuration, clientID: request.clientID, authentication: authentication, http: http)
        // The client's authentication adds client_id itself.
        let response = try await tokens.post(request.parameters.filter { $0.name != "client_id" }, to: endpoint)
        guard response.status == 201 || response.status == 200 else {
            if case .token(let oauth) = TokenEndpoint.error(from: response, url: endpoint) { throw .pushedAuthorizationRefused(oauth) }
            throw JSONResponse.unexpected(response, url: endpoint)
        }
        guard let pushed = try? JSONDecoder().decode(Response.self, from: response.body) else {
            throw JSONResponse.unexpected(response, url: endpoint)
        }
        return FormURLEncoding.appending([("client_id", request.clientID), ("request_uri", pushed.requestURI)],
                                         to: configuration.authorizationEndpoint)
    }

    /// The endpoint's answer (RFC 9126 §2.2); its `expires_in` is the provider's business.
    private struct Response: Decodable {
        let requestURI: String
        enum CodingKeys: String, CodingKey { case requestURI = "request_uri" }
    }
}
