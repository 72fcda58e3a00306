import Foundation
import OpenIDConnect

/// Pushed authorization requests (RFC 9126): `POST /par` keeps an authenticated client's request
/// parameters under a single-use `request_uri` that expires after
/// ``DevProviderConfiguration/pushedRequestLifetime``; the authorization endpoint takes them back
/// from there. With ``DevProviderConfiguration/requirePushedAuthorizationRequests`` it refuses
/// every request that was not pushed.
extension OpenIDProvider {
    /// A pushed request, waiting for its authorization.
    struct PushedRequest: Sendable {
        let clientID: String
        let parameters: [String: String]
        let expiresAt: Date
    }

    /// The prefix of the `request_uri`s this provider hands out (RFC 9126 §2.2).
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"

    /// `POST /par`: stores the request of an authenticated client and answers `201` with its `request_uri`.
    func pushAuthorizationRequest(_ request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let form = Self.fields(request.body)
        guard let clientID = await authenticatedClient(request, form: form, audiences: [issuer, issuer + "/par"]),
              let client = client(clientID) else {
            return oauthError("invalid_client", "client authentication failed", status: 401)
        }
        guard form["request_uri"] == nil else { return oauthError("invalid_request", "request_uri cannot be pushed") }
        guard let redirect = form["redirect_uri"], client.redirectURIs.contains(where: { Self.redirect(redirect, matches: $0) }) else {
            return oauthError("invalid_request", "the redirect URI is not registered for this client")
        }
        let credentials: Set<String> = ["client_secret", "client_assertion", "client_assertion_type"]
        let requestURI = Self.requestURIPrefix + Self.randomToken()
        let lifetime = configuration.pushedRequestLifetime
        let pushed = PushedRequest(clientID: clientID, parameters: form.filter { !credentials.contains($0.key) }.merging(["client_id": clientID]) { $1 },
                                   expiresAt: Date().addingTimeInterval(Double(lifetime)))
        state.withLock { $0.pushedRequests[requestURI] = pushed }
        return json(.object(["request_uri": .string(requestURI), "expires_in": .number(Double(lifetime))]), status: 201,
                    headers: ["Cache-Control": "no-store"])
    }

    /// The parameters pushed under `requestURI` by `clientID`, if they are there and have not expired.
    func pushedParameters(_ requestURI: String, clientID: String?) -> [String: String]? {
        state.withLock { state in
            guard let pushed = state.pushedRequests[requestURI], pushed.clientID == clientID else { return nil }
            guard pushed.expiresAt > Date() else {
                state.pushedRequests[requestURI] = nil
                return nil
            }
            return pushed.parameters
        }
    }

    /// Uses `requestURI` up: an authorization response has been sent for it.
    func consumePushedRequest(_ requestURI: String) {
        state.withLock { $0.pushedRequests[requestURI] = nil }
    }
}
