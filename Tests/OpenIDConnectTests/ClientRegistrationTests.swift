import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import Testing

/// Dynamic client registration (RFC 7591, RFC 7592) against the development provider's
/// `registration_endpoint`: an open one, one that needs an initial access token, expiring secrets.
@Suite("Dynamic client registration")
struct ClientRegistrationTests {
    func register(_ provider: OpenIDProvider, _ request: ClientRegistrationRequest = ClientRegistrationRequest(redirectURIs: ["com.example.webauth:/callback"]),
                  initialAccessToken: String? = nil) async throws -> RegisteredClient {
        let configuration = try await ProviderConfiguration.discover(issuer: provider.issuer, using: URLSessionHTTPClient())
        return try await request.register(at: configuration, initialAccessToken: initialAccessToken, using: URLSessionHTTPClient())
    }

    @Test("a native public client registers: a client ID, no secret, the registration's token and URI; RFC 7592 reads and deletes it")
    func publicClient() async throws {
        let provider = try await OpenIDProvider.start()
        let registered = try await register(provider, ClientRegistrationRequest(redirectURIs: ["com.example.webauth:/callback"], clientName: "Laptop"))
        #expect(registered.clientSecret == nil && registered.tokenEndpointAuthMethod == SavedClient.AuthenticationMethod.none)
        #expect(registered.redirectURIs == ["com.example.webauth:/callback"] && registered.clientName == "Laptop")
        #expect(try registered.authentication() == ClientAuthentication.none)
        let uri = try #require(registered.registrationClientURI)
        let bearer = ["Authorization": "Bearer " + (try #require(registered.registrationAccessToken))]
        let read = try await URLSessionHTTPClient().send(HTTPRequest(url: uri, headers: bearer))
        let described = try JSONValue(parsing: String(decoding: read.body, as: UTF8.self))
        #expect(read.status == 200 && described["client_id"]?.stringValue == registered.clientID)
        #expect(try await URLSessionHTTPClient().send(HTTPRequest(method: "DELETE", url: uri, headers: bearer)).status == 204)
        #expect(try await URLSessionHTTPClient().send(HTTPRequest(url: uri, headers: bearer)).status == 401, "gone")
    }

    @Test("a confidential client gets a secret that expires when the provider says; the saved form keeps it all")
    func expiringSecret() async throws {
        var settings = DevProviderConfiguration()
        settings.registeredSecretLifetime = 3600
        let provider = try await OpenIDProvider.start(configuration: settings)
        let registered = try await register(provider, ClientRegistrationRequest(redirectURIs: ["com.example.webauth:/callback"],
                                                                                tokenEndpointAuthMethod: .clientSecretPost))
        let secret = try #require(registered.clientSecret)
        let expiry = try #require(registered.clientSecretExpiresAt)
        #expect(expiry > Date() && !registered.isSecretExpired())
        #expect(try registered.authentication() == .clientSecretPost(secret: secret))
        #expect(registered.isSecretExpired(at: expiry))
        #expect(throws: ClientRegistrationError.secretExpired(clientID: registered.clientID, expiredAt: expiry)) {
            try registered.authentication(at: expiry.addingTimeInterval(1))
        }
        #expect(try JSONDecoder().decode(RegisteredClient.self, from: JSONEncoder().encode(registered)) == registered)
    }

    @Test("a provider that needs an initial access token refuses a registration without it, or with another, and takes one with it")
    func initialAccessToken() async throws {
        var settings = DevProviderConfiguration()
        settings.registrationInitialAccessToken = "iat-" + UUID().uuidString
        let provider = try await OpenIDProvider.start(configuration: settings)
        for token in [nil, "not-it"] {
            let error = await #expect(throws: OpenIDConnectError.self) { try await register(provider, initialAccessToken: token) }
            guard case .registration(.refused(401, let oauth))? = error else { Issue.record("refused with 401: \(String(describing: error))"); continue }
            #expect(oauth.error == "invalid_token" && error?.description.contains("initial access token") == true)
        }
        _ = try await register(provider, initialAccessToken: settings.registrationInitialAccessToken)
    }

    @Test("bad metadata and a provider without a registration endpoint are typed errors")
    func refusals() async throws {
        let provider = try await OpenIDProvider.start()
        let error = await #expect(throws: OpenIDConnectError.self) { try await register(provider, ClientRegistrationRequest(redirectURIs: [])) }
        guard case .registration(.refused(400, let oauth))? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(oauth.error == "invalid_redirect_uri")
        var configuration = try await ProviderConfiguration.discover(issuer: provider.issuer, using: URLSessionHTTPClient())
        configuration.registrationEndpoint = nil
        await #expect(throws: OpenIDConnectError.registration(.noRegistrationEndpoint(issuer: provider.issuer))) {
            try await ClientRegistrationRequest(redirectURIs: ["com.example.webauth:/callback"]).register(at: configuration,
                                                                                                          using: URLSessionHTTPClient())
        }
    }
}
