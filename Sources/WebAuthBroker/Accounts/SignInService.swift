import Foundation
import Logging
import OpenIDConnect
import WebAuthBrokerContract
import WebAuthExitStatus
import WebAuthSession

/// `SignIn`: the provider's page in a window (transient for the caller's), the code exchanged,
/// the ID token validated, the sign-in saved as the account's (replacing an earlier one of the
/// same provider and client, whose refresh token is revoked), as `webauth login --profile NAME`.
struct SignInService: Sendable {
    let accounts: AccountStore
    let configuration: BrokerConfiguration
    let logger: Logger

    /// The redirect URI of an account that names none, as `webauth login`'s.
    static let defaultRedirectURI = "com.example.webauth:/callback"
    /// The scopes of an account that names none, as `webauth login`'s.
    static let defaultScopes = ["openid", "profile", "offline_access"]

    /// Signs `options.account` in; `script` fills the page (a broker started with `--allow-scripts`).
    /// - Returns: the saved sign-in.
    /// - Throws: ``BrokerError``: ``BrokerErrorName/invalidArgument`` for a new account without an
    ///   issuer or client, or another issuer or client than the account's; then the sign-in's.
    /// - Parameter admission: who asks; it decides, under the account's lock, whether the sign-in
    ///   may run, and is told once the sign-in is saved.
    func signIn(_ options: SignInOptions, parent: ParentWindow?, script: LoginScript?,
                admission: AccountAdmission) async throws(BrokerError) -> AuthState {
        let limit = options.timeout ?? .seconds(300)
        return try await RequestDeadline.run(within: limit) { () throws(BrokerError) -> AuthState in
            try await accounts.whileLocked(options.account, waitingAtMost: limit) { () throws(BrokerError) -> AuthState in
                try await signInHoldingLock(options, parent: parent, script: script, admission: admission, limit: limit)
            }
        }
    }

    private func signInHoldingLock(_ options: SignInOptions, parent: ParentWindow?, script: LoginScript?, admission: AccountAdmission,
                                   limit: Duration) async throws(BrokerError) -> AuthState {
        let (previous, _) = try await accounts.load(options.account)
        try await admission.admitSignIn(replacing: previous)
        if let previous, let kept = Self.keptOnlyByWebauth(previous) {
            throw .invalidArgument("the account '\(options.account)' is signed in with \(kept), which SignIn would drop; sign it in again with `webauth login`")
        }
        let issuer = try Self.same(options.issuer, previous?.configuration.issuer, "issuer", account: options.account)
        let clientID = try Self.same(options.clientID, previous?.clientID, "client_id", account: options.account)
        guard let issuer, let clientID else {
            throw .invalidArgument("the account '\(options.account)' is new: give the options issuer and client_id")
        }
        let redirect = options.redirectURI ?? previous?.client?.redirectURI ?? Self.defaultRedirectURI
        let redirectURI: RedirectURI
        do { redirectURI = try RedirectURI(redirect) } catch { throw .invalidArgument("the redirect URI cannot be used: \(error)") }
        let scopes = options.scopes ?? previous?.client?.scopes ?? Self.defaultScopes
        // A new sign-in of the account (same provider and client, checked above) takes the route of the one it replaces.
        let route: BrokerRoute
        do throws(ReportedFailure) { route = try configuration.route(previous?.client?.route) } catch { throw BrokerError(error) }
        let http = route.http(timeout: limit)
        let client = OpenIDConnectClient(issuer: issuer, clientID: clientID, redirectURI: redirectURI, http: http)
        let page = ProviderPage(account: options.account, parent: parent, script: script, limit: limit, accounts: accounts, configuration: configuration,
                                route: route, http: http)
        let result: SignInResult
        do {
            result = try await client.signIn(scopes: scopes, additionalParameters: options.authorizationParameters, options: page.options,
                                             script: page.scriptRunner)
        } catch {
            throw BrokerError(signingIn: error)
        }
        var state = result.authState
        state.client = SavedClient(redirectURI: redirect, scopes: scopes, authenticationMethod: .none)
        state.client?.route = route.saved
        let store = try await accounts.storeForSaving(options.account)
        do throws(AuthStateStoreError) { try await store.save(state) } catch { throw BrokerError(error) }
        try await admission.signedIn()
        if let previous, previous.configuration.issuer == issuer, previous.clientID == clientID, previous.refreshToken != state.refreshToken {
            do { _ = try await previous.revokeRefreshToken(authentication: .none, http: http) } catch {
                logger.warning("the replaced sign-in's refresh token could not be revoked: \(error)")
            }
        }
        return state
    }

    /// What `state` was signed in with that `SignIn` (a public client, discovery) cannot sign in
    /// with again, so that a new sign-in would lose it: `nil` when nothing.
    static func keptOnlyByWebauth(_ state: AuthState) -> String? {
        if state.registration != nil { return "a client it registered itself" }
        if let client = state.client, client.authenticationMethod != .none || client.clientSecret != nil || client.privateKey != nil {
            return "a confidential client"
        }
        if state.client?.idTokenSigning != nil { return "a fixed ID-token algorithm" }
        if state.dpopKey != nil { return "DPoP-bound tokens" }
        return nil
    }

    /// The option `given`, which must be the account's `saved` value when the account has one.
    private static func same(_ given: String?, _ saved: String?, _ key: String, account: String) throws(BrokerError) -> String? {
        if let given, let saved, given != saved {
            throw .invalidArgument("the account '\(account)' is signed in with another \(key); sign it out first, or use another account")
        }
        return given ?? saved
    }
}
