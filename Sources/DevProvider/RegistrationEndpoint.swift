import Foundation
import OpenIDConnect

/// Dynamic client registration (RFC 7591) and its management (RFC 7592): `POST /register` takes a
/// client's metadata (with ``DevProviderConfiguration/registrationInitialAccessToken`` as a bearer
/// token when that is set) and answers `201` with a new client ID, a secret unless it asked for
/// `none` (living ``DevProviderConfiguration/registeredSecretLifetime``), and a registration access
/// token for `GET` and `DELETE /register/CLIENT_ID`. The client signs in like a configured one; a
/// secret past its expiry no longer authenticates it (`invalid_client`). The clients it registers
/// are kept in the ``ClientRegistry``, which only this endpoint changes.
struct RegistrationEndpoint: Sendable {
    let context: ProviderContext
    let clients: ClientRegistry

    /// `POST /register`.
    func register(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        if let required = context.configuration.registrationInitialAccessToken, request.header("Authorization") != "Bearer " + required {
            return .oauthError("invalid_token", "registration needs the initial access token", status: 401)
        }
        guard let metadata = try? JSONValue(parsing: request.body), case .object = metadata else {
            return .oauthError("invalid_client_metadata", "the body must be a JSON object")
        }
        guard case .array(let listed)? = metadata["redirect_uris"] else {
            return .oauthError("invalid_redirect_uri", "redirect_uris must name at least one absolute URI")
        }
        let redirects = listed.compactMap(\.stringValue)
        guard !redirects.isEmpty, redirects.allSatisfy({ URLComponents(string: $0)?.scheme != nil }) else {
            return .oauthError("invalid_redirect_uri", "redirect_uris must name at least one absolute URI")
        }
        let method = metadata["token_endpoint_auth_method"]?.stringValue ?? "client_secret_basic"
        guard ["none", "client_secret_basic", "client_secret_post"].contains(method) else {
            return .oauthError("invalid_client_metadata", "token_endpoint_auth_method \(method) is not supported")
        }
        let issuedAt = Date()
        let registered = ClientRegistry.Registration(
            client: DevProviderConfiguration.Client(clientID: "dyn-" + UUID().uuidString.lowercased(),
                                                    clientSecret: method == "none" ? nil : ProviderForm.randomToken(), redirectURIs: redirects),
            secretExpiresAt: method == "none" ? nil : context.configuration.registeredSecretLifetime.map { issuedAt.addingTimeInterval(Double($0)) },
            registrationAccessToken: ProviderForm.randomToken(), issuedAt: issuedAt)
        clients.add(registered)
        return .json(description(of: registered, method: method, name: metadata["client_name"]?.stringValue), status: 201,
                     headers: ["Cache-Control": "no-store"])
    }

    /// `GET` (read) and `DELETE` (remove) `/register/CLIENT_ID` with the registration access token (RFC 7592).
    func manageRegistration(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        let clientID = String(request.path.dropFirst("/register/".count))
        guard let registered = clients.registration(of: clientID),
              request.header("Authorization") == "Bearer " + registered.registrationAccessToken else {
            return .oauthError("invalid_token", "unknown client or wrong registration access token", status: 401)
        }
        switch request.method {
        case "GET":
            return .json(description(of: registered, method: registered.client.clientSecret == nil ? "none" : "client_secret_basic", name: nil),
                         headers: ["Cache-Control": "no-store"])
        case "DELETE":
            clients.remove(clientID)
            return LocalHTTPResponse(status: 204)
        default:
            return LocalHTTPResponse(status: 405, body: "GET or DELETE")
        }
    }

    /// The registration response (RFC 7591 §3.2.1) of `registered`.
    private func description(of registered: ClientRegistry.Registration, method: String, name: String?) -> JSONValue {
        var fields: [String: JSONValue] = [
            "client_id": .string(registered.client.clientID),
            "client_id_issued_at": .number(registered.issuedAt.timeIntervalSince1970.rounded(.down)),
            "redirect_uris": .array(registered.client.redirectURIs.map { .string($0) }),
            "token_endpoint_auth_method": .string(method),
            "grant_types": .array([.string("authorization_code"), .string("refresh_token")]),
            "registration_access_token": .string(registered.registrationAccessToken),
            "registration_client_uri": .string(context.issuer + "/register/" + registered.client.clientID),
        ]
        if let secret = registered.client.clientSecret {
            fields["client_secret"] = .string(secret)
            fields["client_secret_expires_at"] = .number(registered.secretExpiresAt?.timeIntervalSince1970.rounded(.down) ?? 0)
        }
        if let name { fields["client_name"] = .string(name) }
        return .object(fields)
    }
}
