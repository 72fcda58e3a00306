import Foundation
import OpenIDConnect

/// The token endpoint's answer for a grant it honours: an access token, an ID token, and with
/// `offline_access` a refresh token, recorded in the ``TokenLedger``, with the faults that spoil
/// them.
struct TokenIssuer: Sendable {
    /// What a refresh asked the access token to be, instead of the grant's scope and the client as audience.
    struct RequestedAccess {
        var scope: String?
        var audiences: [String] = []
    }

    let context: ProviderContext
    let ledger: TokenLedger
    let signer: IDTokenSigner

    /// Tokens for `grant`: an access token with `requested`'s scope and audiences (else the grant's
    /// scope, for the client), an ID token (with the grant's nonce when `includeNonce`), and with
    /// `offline_access` a refresh token for the whole grant.
    func tokens(for grant: Grant, includeNonce: Bool, _ requested: RequestedAccess = RequestedAccess()) async -> LocalHTTPResponse {
        let accessToken = ProviderForm.randomToken()
            + (context.has(.injectingAccessToken) ? "\nquit=1" : context.has(.spacedAccessToken) ? " opaque" : "")
        let refreshToken = grant.scope.split(separator: " ").contains("offline_access") ? ProviderForm.randomToken() : nil
        let now = Date().timeIntervalSince1970.rounded(.down) - (context.has(.expiredIDToken) ? 3600 : 0)
        let lifetime = Double(context.accessTokenLifetime)
        let scope = requested.scope ?? grant.scope
        ledger.record(accessToken: accessToken, TokenLedger.AccessToken(
            subject: grant.subject, clientID: grant.clientID, scope: scope,
            audiences: requested.audiences.isEmpty ? [grant.clientID] : requested.audiences, expiresAt: Date().addingTimeInterval(lifetime),
            jkt: grant.jkt), refreshToken: refreshToken, for: grant)
        let issuer = context.issuer
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(grant.subject), "aud": .string(grant.clientID),
            "iat": .number(now), "exp": .number(context.has(.expiredIDToken) ? now + 60 : now + lifetime),
            "auth_time": .number(context.has(.staleAuthTime) ? now - 3600 : now),
        ]
        if includeNonce, let nonce = grant.nonce { claims["nonce"] = .string(nonce) }
        guard let idToken = await signer.sign(claims, for: grant.clientID) else {
            return LocalHTTPResponse(status: 500, body: "signing failed")
        }
        var body: [String: JSONValue] = [
            "access_token": .string(accessToken), "token_type": .string(grant.jkt == nil ? "Bearer" : "DPoP"),
            "expires_in": .number(lifetime), "id_token": .string(idToken), "scope": .string(scope),
        ]
        if let refreshToken { body["refresh_token"] = .string(refreshToken) }
        var response = LocalHTTPResponse.json(.object(body), headers: ["Cache-Control": "no-store"])
        if context.has(.truncatedTokenResponse) { response.body = String(response.body.prefix(response.body.count / 2)) }
        return response
    }
}
