import Foundation
import WebAuthSupport
import OpenIDConnect

/// The JSON that `webauth login` and `webauth status` print about a saved sign-in. Tokens only
/// appear when asked for. Each field has one type (docs/schemas/login.schema.json):
/// `has_refresh_token` is always a boolean, `refresh_token` (with the tokens) always text or null.
package enum SignInSummary {
    package static func json(_ state: AuthState, store: String, showTokens: Bool = false) -> JSONValue {
        var fields: [String: JSONValue] = [
            "signed_in": .bool(state.reauthenticationReason == nil),
            "issuer": .string(state.configuration.issuer),
            "client_id": .string(state.clientID),
            "store": .string(store),
            "has_refresh_token": .bool(state.refreshToken != nil),
            // False for an OAuth-only sign-in (a device grant without openid): no subject, no claims.
            "id_token_issued": .bool(state.idToken != nil),
        ]
        if let reason = state.reauthenticationReason { fields["sign_in_again"] = .string("\(reason)") }
        if let idToken = state.idToken {
            fields["subject"] = .string(idToken.subject)
            fields["id_token_claims"] = .object(Self.shown(idToken.claims.all))
        }
        if let scope = state.lastTokenResponse?.scope ?? state.lastAuthorizationResponse?.scope {
            fields["scopes"] = .array(scope.split(separator: " ").map { .string(String($0)) })
        }
        if let expiry = state.lastTokenResponse?.accessTokenExpiresAt {
            fields["access_token_expires_at"] = .string(UTCTimestamp.text(expiry))
        }
        if showTokens {
            fields["access_token"] = state.accessToken.map(JSONValue.string) ?? .null
            fields["refresh_token"] = state.refreshToken.map(JSONValue.string) ?? .null
            fields["id_token"] = state.idToken.map { .string($0.rawValue) } ?? .null
        }
        return .object(fields)
    }

    /// ID-token claims as every output shows them: the nonce has done its work, but it is still the
    /// request's secret, so its length only.
    package static func shown(_ claims: [String: JSONValue]) -> [String: JSONValue] {
        var claims = claims
        if let nonce = claims["nonce"]?.stringValue { claims["nonce"] = .string("<\(nonce.count)>") }
        return claims
    }
}
