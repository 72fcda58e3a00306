import Foundation
import OpenIDConnect

/// The `a{sv}` results of the contract: a token (`GetToken`, `SignIn`'s `Response`), an account
/// (`ListAccounts`), a failure (`Response` 2).
public enum BrokerResults {
    /// What a caller needs to use `token` of `account`, whose sign-in is `state`: `account`,
    /// `subject`, `issuer`, `access_token`, `token_type`, `expires_at` (when known), `scopes`
    /// (when known) and `id_token` (when there is one).
    public static func token(_ token: AccessToken, account: String, state: AuthState) -> [String: BusValue] {
        var results = summary(account: account, state: state)
        results["access_token"] = .string(token.token)
        results["token_type"] = .string(token.tokenType)
        if let expiresAt = token.expiresAt { results["expires_at"] = .int64(Int64(expiresAt.timeIntervalSince1970.rounded(.down))) }
        if let scopes = token.scopes { results["scopes"] = .strings(scopes) }
        if let idToken = state.idToken { results["id_token"] = .string(idToken.rawValue) }
        return results
    }

    /// The access token in `GetToken`'s `results`, as ``token(_:account:state:)`` wrote it; `nil`
    /// when they hold none (a broker that answers otherwise).
    public static func accessToken(in results: [String: BusValue]) -> AccessToken? {
        guard case .string(let token)? = results["access_token"], !token.isEmpty else { return nil }
        var tokenType = "Bearer"
        if case .string(let type)? = results["token_type"] { tokenType = type }
        var expiresAt: Date?
        if case .int64(let seconds)? = results["expires_at"] { expiresAt = Date(timeIntervalSince1970: TimeInterval(seconds)) }
        var scopes: [String]?
        if case .strings(let granted)? = results["scopes"] { scopes = granted }
        return AccessToken(token: token, tokenType: tokenType, expiresAt: expiresAt, scopes: scopes)
    }

    /// An account as `ListAccounts` shows it, never a token: `account`, `issuer`, `subject` and
    /// the access token's `expires_at` (when known).
    public static func account(_ account: String, state: AuthState) -> [String: BusValue] {
        var results = summary(account: account, state: state)
        if let expiresAt = state.lastTokenResponse?.accessTokenExpiresAt {
            results["expires_at"] = .int64(Int64(expiresAt.timeIntervalSince1970.rounded(.down)))
        }
        return results
    }

    /// A failed request's results: `error` (the one-line message), `error_name` and `exit_status`.
    public static func failure(_ error: BrokerError) -> [String: BusValue] {
        ["error": .string(error.message), "error_name": .string(error.name.rawValue), "exit_status": .uint32(error.name.exitStatus)]
    }

    private static func summary(account: String, state: AuthState) -> [String: BusValue] {
        var results: [String: BusValue] = ["account": .string(account), "issuer": .string(state.configuration.issuer)]
        if let subject = state.idToken?.subject { results["subject"] = .string(subject) }
        return results
    }
}
