import Foundation

extension ClientRegistrationRequest {
    /// Registers the client at `configuration`'s `registration_endpoint` (RFC 7591 §3): the
    /// metadata as JSON, with `initialAccessToken` as a bearer token when the provider needs one.
    /// - Throws: ``OpenIDConnectError/registration(_:)`` (no endpoint, refused, an answer without
    ///   `client_id`), ``OpenIDConnectError/http(_:)``, or an unexpected response.
    public func register(at configuration: ProviderConfiguration, initialAccessToken: String? = nil,
                         using http: any HTTPClient) async throws(OpenIDConnectError) -> RegisteredClient {
        guard let endpoint = configuration.registrationEndpoint else {
            throw .registration(.noRegistrationEndpoint(issuer: configuration.issuer))
        }
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        if let initialAccessToken { headers["Authorization"] = "Bearer " + initialAccessToken }
        let body: Data
        do { body = try JSONEncoder().encode(self) } catch { throw .registration(.malformedResponse("the request cannot be encoded: \(error)")) }
        let response: HTTPResponse
        do { response = try await http.send(HTTPRequest(method: "POST", url: endpoint, headers: headers, body: body)) } catch {
            throw .http(error)
        }
        guard response.status == 201 || response.status == 200 else {
            let error = TokenEndpoint.error(from: response, url: endpoint)
            if case .token(let oauth) = error { throw .registration(.refused(status: response.status, oauth)) }
            throw error
        }
        guard let registered = try? JSONDecoder().decode(RegisteredClient.self, from: response.body), !registered.clientID.isEmpty else {
            throw .registration(.malformedResponse("no client_id in the answer of \(URLRedaction.redactingValues(endpoint.absoluteString))"))
        }
        return registered
    }
}
