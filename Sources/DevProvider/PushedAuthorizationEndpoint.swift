import Foundation
import OpenIDConnect
import WebAuthSupport

/// Pushed authorization requests (RFC 9126): `POST /par` keeps an authenticated client's request
/// parameters under a single-use `request_uri` that expires after
/// ``DevProviderConfiguration/pushedRequestLifetime``; the ``AuthorizationEndpoint`` takes them
/// back from here. With ``DevProviderConfiguration/requirePushedAuthorizationRequests`` that
/// endpoint refuses every request that was not pushed.
final class PushedAuthorizationEndpoint: Sendable {
    /// A pushed request, waiting for its authorization.
    private struct PushedRequest: Sendable {
        let clientID: String
        let parameters: [String: String]
        let expiresAt: Date
    }

    /// The prefix of the `request_uri`s this provider hands out (RFC 9126 §2.2).
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"

    private let context: ProviderContext
    private let clients: ClientRegistry
    private let authenticator: ClientAuthenticator
    /// Pushed requests by `request_uri`. Not a `Mutex`: see ``LockedState`` (server threads).
    private let pushed = LockedState<[String: PushedRequest]>([:])

    init(context: ProviderContext, clients: ClientRegistry, authenticator: ClientAuthenticator) {
        (self.context, self.clients, self.authenticator) = (context, clients, authenticator)
    }

    /// `POST /par`: stores the request of an authenticated client and answers `201` with its `request_uri`.
    func respond(to request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let form = ProviderForm.fields(request.body)
        let issuer = context.issuer
        guard let clientID = await authenticator.clientID(of: request, form: form, audiences: [issuer, issuer + "/par"]),
              let client = clients.client(clientID) else {
            return .oauthError("invalid_client", "client authentication failed", status: 401)
        }
        guard form["request_uri"] == nil else { return .oauthError("invalid_request", "request_uri cannot be pushed") }
        guard let redirect = form["redirect_uri"], client.allowsRedirect(to: redirect) else {
            return .oauthError("invalid_request", "the redirect URI is not registered for this client")
        }
        let credentials: Set<String> = ["client_secret", "client_assertion", "client_assertion_type"]
        let requestURI = Self.requestURIPrefix + ProviderForm.randomToken()
        let lifetime = context.configuration.pushedRequestLifetime
        let held = PushedRequest(clientID: clientID,
                                 parameters: form.filter { !credentials.contains($0.key) }.merging(["client_id": clientID]) { $1 },
                                 expiresAt: Date().addingTimeInterval(Double(lifetime)))
        pushed.withLock { $0[requestURI] = held }
        return .json(.object(["request_uri": .string(requestURI), "expires_in": .number(Double(lifetime))]), status: 201,
                     headers: ["Cache-Control": "no-store"])
    }

    /// The parameters pushed under `requestURI` by `clientID`, if they are there and have not expired.
    func parameters(_ requestURI: String, clientID: String?) -> [String: String]? {
        pushed.withLock { pushed in
            guard let request = pushed[requestURI], request.clientID == clientID else { return nil }
            guard request.expiresAt > Date() else {
                pushed[requestURI] = nil
                return nil
            }
            return request.parameters
        }
    }

    /// Uses `requestURI` up: an authorization response has been sent for it.
    func consume(_ requestURI: String) {
        pushed.withLock { $0[requestURI] = nil }
    }
}
