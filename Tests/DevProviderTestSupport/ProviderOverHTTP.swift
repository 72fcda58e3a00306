import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import Testing

/// The development provider over raw HTTP, as curl would use it, and through this package's
/// protocol layer: what the provider's own tests and the protocol's tests against it share.
public struct ProviderOverHTTP: Sendable {
    /// The client that sends every request.
    public let http = URLSessionHTTPClient()
    /// The redirect URI of every client these providers know.
    public static let redirect = "com.example.webauth:/callback"

    /// A client for the providers it starts.
    public init() {}

    /// A provider with the demo client, a consent client and a confidential client, changed by `change`.
    public func provider(_ change: (inout DevProviderConfiguration) -> Void = { _ in }) async throws -> OpenIDProvider {
        var settings = DevProviderConfiguration()
        settings.clients = [
            .demo,
            OpenIDProvider.Client(clientID: "consent-app", redirectURIs: [Self.redirect], requiresConsent: true),
            OpenIDProvider.Client(clientID: "server-app", clientSecret: "s3cret", redirectURIs: [Self.redirect]),
        ]
        change(&settings)
        return try await OpenIDProvider.start(configuration: settings)
    }

    /// An authorization request of `client` for `scopes`, and the discovered configuration of `provider`.
    public func request(_ provider: OpenIDProvider, client: String = "webauth-demo", scopes: [String] = ["openid", "offline_access"],
                        extra: [String: String] = [:]) async throws -> (AuthorizationRequest, ProviderConfiguration) {
        let configuration = try await ProviderConfiguration.discover(issuer: provider.issuer, using: http)
        let request = AuthorizationRequest(clientID: client, redirectURI: try RedirectURI(Self.redirect), scopes: scopes,
                                           additionalParameters: extra)
        return (request, configuration)
    }

    /// `GET url`.
    public func get(_ url: URL) async throws -> HTTPResponse { try await http.send(HTTPRequest(url: url)) }

    /// `POST url` with `form` as its body.
    public func post(_ url: URL, _ form: [(name: String, value: String)], headers: [String: String] = [:]) async throws -> HTTPResponse {
        try await http.send(HTTPRequest(method: "POST", url: url,
                                        headers: headers.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 },
                                        body: Data(FormURLEncoding.encode(form).utf8)))
    }

    /// The body of `response` as text.
    public func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// Posts the password form and returns the response.
    public func logIn(_ url: URL, username: String = "alice", password: String = "wonderland") async throws -> HTTPResponse {
        try await post(url, [("step", "password"), ("username", username), ("password", password)])
    }

    /// The checked authorization response in a 302.
    public func response(_ answer: HTTPResponse, _ request: AuthorizationRequest,
                         _ configuration: ProviderConfiguration) throws -> AuthorizationResponse {
        #expect(answer.status == 302)
        let callback = try RedirectCallback(url: try #require(answer.headers["location"]), redirectURI: request.redirectURI)
        return try AuthorizationResponse(callback: callback, request: request, configuration: configuration)
    }
}
