import Foundation
import OpenIDConnect
import WebAuthBrokerContract
import WebAuthExitStatus
import WebAuthSession

/// `GetToken`: an account's access token, refreshed when it expires within `min_valid`, never with
/// a window, the client authenticating as the saved sign-in says (its secret or key found as
/// `webauth token` finds it: ``BrokerConfiguration/clientAuthentication``), on the route its sign-in
/// was made with (``BrokerConfiguration/route``).
/// One ``AuthStateManager`` per account serves every caller, so refreshes are
/// single-flight across callers (one refresh, everyone gets its result) and, through the store's
/// lock, across `webauth` commands. The saved sign-in is read again at each call: a new sign-in or
/// a sign-out by `webauth` counts at once.
actor TokenService {
    private let accounts: AccountStore
    private let configuration: BrokerConfiguration
    private var managers: [String: AuthStateManager] = [:]

    init(accounts: AccountStore, configuration: BrokerConfiguration) {
        self.accounts = accounts
        self.configuration = configuration
    }

    /// `account`'s token as `options` ask, with its saved sign-in.
    func token(_ options: TokenOptions) async throws(BrokerError) -> (token: AccessToken, state: AuthState) {
        let manager = try await manager(of: options.account)
        let lifetime = await manager.state.lastTokenResponse?.expiresIn
        // Only a min_valid asked for is capped: the default minute is the refresh margin itself.
        let minimum = options.minimumValidity.map { AccessToken.reachableValidity($0, lifetime: lifetime) } ?? .seconds(60)
        do {
            let token = try await manager.freshAccessToken(minimumValidity: minimum, scopes: options.scopes, resources: options.resources)
            return (token, await manager.state)
        } catch {
            throw BrokerError(error)
        }
    }

    /// The manager of `account`'s saved sign-in: the one in use while the store holds what it
    /// holds, else a new one.
    private func manager(of account: String) async throws(BrokerError) -> AuthStateManager {
        let (saved, store) = try await accounts.load(account)
        guard let state = saved else {
            managers[account] = nil
            throw BrokerError(.notSignedIn, "no saved sign-in named '\(account)': call SignIn (or run webauth login --profile \(account))")
        }
        if let reason = state.reauthenticationReason { throw BrokerError(.notSignedIn, "not signed in: \(reason)") }
        if let current = managers[account], await current.state == state { return current }
        let authentication: ClientAuthentication
        let route: BrokerRoute
        do throws(ReportedFailure) {
            authentication = try configuration.clientAuthentication(state.client)
            route = try configuration.route(state.client?.route)
        } catch {
            throw BrokerError(error)
        }
        let manager = AuthStateManager(state: state, store: store, authentication: authentication, http: route.http())
        managers[account] = manager
        return manager
    }
}
