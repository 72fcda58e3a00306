import Foundation
import OpenIDConnect

/// `POST /introspect` (RFC 7662), for an authenticated client: whether an access token is active,
/// and its subject, client, scope, audiences (`aud`, from `resource`) and expiry.
struct IntrospectionEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    let ledger: TokenLedger

    /// `POST /introspect`.
    func respond(to request: LocalHTTPRequest) async -> LocalHTTPResponse {
        let form = ProviderForm.fields(request.body)
        guard await authenticator.clientID(of: request, form: form) != nil else {
            return .oauthError("invalid_client", "client authentication failed", status: 401)
        }
        guard let issued = ledger.accessToken(form["token"] ?? ""), issued.expiresAt > Date() else {
            return .json(.object(["active": .bool(false)]))
        }
        return .json(.object([
            "active": .bool(true), "sub": .string(issued.subject), "client_id": .string(issued.clientID), "scope": .string(issued.scope),
            "aud": .array(issued.audiences.map { .string($0) }), "exp": .number(issued.expiresAt.timeIntervalSince1970.rounded(.down)),
            "token_type": .string("Bearer"),
        ]))
    }
}
