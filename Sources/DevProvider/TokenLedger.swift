import Foundation
import OpenIDConnect
import WebAuthSupport

/// The access and refresh tokens the development provider has issued and not revoked: what the
/// token endpoint writes, and userinfo, introspection and revocation read or remove.
final class TokenLedger: Sendable {
    /// An access token handed out: for whom, to which client, with which scopes, for which
    /// audiences (the resources asked for, else the client), until when, and the thumbprint of the
    /// DPoP key it is bound to, if it is.
    struct AccessToken: Sendable {
        let subject: String
        let clientID: String
        let scope: String
        let audiences: [String]
        let expiresAt: Date
        let jkt: String?
    }

    /// Why a refresh token is not honoured.
    enum RefreshRefusal: Error { case unknown, otherDPoPKey, widerScope }

    private struct Tokens: Sendable {
        var access: [String: AccessToken] = [:]
        var refresh: [String: Grant] = [:]
    }

    /// Not a `Mutex`: see ``LockedState`` (server threads).
    private let tokens = LockedState(Tokens())

    /// Records `accessToken`, and `refreshToken` for the whole of `grant`.
    func record(accessToken: String, _ issued: AccessToken, refreshToken: String?, for grant: Grant) {
        tokens.withLock { tokens in
            tokens.access[accessToken] = issued
            if let refreshToken { tokens.refresh[refreshToken] = grant }
        }
    }

    /// The grant of `refreshToken`, used up (rotation), when `clientID` holds it, `jkt` is the key
    /// it is bound to (if it is), and `scope` (if asked) is within the grant's.
    func redeem(refreshToken: String, clientID: String, jkt: String?, scope: Set<String>?) -> Result<Grant, RefreshRefusal> {
        tokens.withLock { tokens in
            guard let found = tokens.refresh[refreshToken], found.clientID == clientID else { return .failure(.unknown) }
            guard found.jkt == nil || found.jkt == jkt else { return .failure(.otherDPoPKey) }
            if let scope, !scope.isSubset(of: found.scope.split(separator: " ").map(String.init)) { return .failure(.widerScope) }
            tokens.refresh[refreshToken] = nil
            return .success(found)
        }
    }

    /// The access token `token`, if it was issued and not revoked (expired or not).
    func accessToken(_ token: String) -> AccessToken? { tokens.withLock { $0.access[token] } }

    /// Forgets `token`, whether it is an access or a refresh token.
    func revoke(_ token: String) {
        tokens.withLock { tokens in
            tokens.refresh[token] = nil
            tokens.access[token] = nil
        }
    }

    /// How many refresh tokens are valid now.
    var liveRefreshTokenCount: Int { tokens.withLock { $0.refresh.count } }
}
