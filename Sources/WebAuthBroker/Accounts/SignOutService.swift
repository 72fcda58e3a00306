import Foundation
import Logging
import OpenIDConnect
import WebAuthBrokerContract
import WebAuthExitStatus
import WebAuthSession

/// `SignOut`, as `webauth logout --profile NAME`: the refresh token revoked first, the provider's
/// end-session page shown (transient for the caller's window), then the account's cookies and
/// saved sign-in deleted whatever the provider's page did.
struct SignOutService: Sendable {
    let accounts: AccountStore
    let configuration: BrokerConfiguration
    let logger: Logger

    /// Signs `options.account` out.
    /// - Returns: `account`, `provider_session_ended` and `refresh_token_revoked`.
    /// - Throws: ``BrokerErrorName/notSignedIn`` when there is nothing to sign out;
    ///   ``BrokerErrorName/providerError`` when only the provider's part did not finish (the
    ///   account is signed out here all the same).
    /// - Parameter admission: who asks; it decides, under the account's lock, whether the sign-out may run.
    func signOut(_ options: SignOutOptions, parent: ParentWindow?, script: LoginScript?,
                 admission: AccountAdmission) async throws(BrokerError) -> [String: BusValue] {
        let limit = options.timeout ?? .seconds(300)
        return try await RequestDeadline.run(within: limit) { () throws(BrokerError) -> [String: BusValue] in
            try await accounts.whileLocked(options.account, waitingAtMost: limit) { () throws(BrokerError) -> [String: BusValue] in
                try await signOutHoldingLock(options, parent: parent, script: script, admission: admission, limit: limit)
            }
        }
    }

    private func signOutHoldingLock(_ options: SignOutOptions, parent: ParentWindow?, script: LoginScript?, admission: AccountAdmission,
                                    limit: Duration) async throws(BrokerError) -> [String: BusValue] {
        let (saved, store) = try await accounts.load(options.account)
        try await admission.admitSignOut(of: saved)
        guard let state = saved else { throw BrokerError(.notSignedIn, "no saved sign-in named '\(options.account)'") }
        let route: BrokerRoute
        do throws(ReportedFailure) { route = try configuration.route(state.client?.route) } catch { throw BrokerError(error) }
        let http = route.http(timeout: limit)
        var unfinished: [String] = []
        var revoked = false
        do { revoked = try await state.revokeRefreshToken(authentication: try configuration.clientAuthentication(state.client), http: http) } catch {
            unfinished.append("the refresh token was not revoked: \(error)")
        }
        var endedAtProvider = false
        if state.configuration.endSessionEndpoint != nil {
            let redirect = state.client?.redirectURI ?? SignInService.defaultRedirectURI
            do {
                let client = OpenIDConnectClient(provider: .configuration(state.configuration), clientID: state.clientID,
                                                 redirectURI: try RedirectURI(redirect), http: http)
                let page = ProviderPage(account: options.account, parent: parent, script: script, signOut: true, limit: limit, accounts: accounts,
                                        configuration: configuration, route: route, http: http)
                _ = try await client.signOut(state, options: page.options, script: page.scriptRunner)
                endedAtProvider = true
            } catch let error as SignInError {
                if Task.isCancelled { throw BrokerError(error) }
                unfinished.append("\(error)")
            } catch {
                unfinished.append("the post-logout redirect URI \(redirect) cannot be used: \(error)")
            }
        }
        try await accounts.clearWebsiteData(options.account)
        do throws(AuthStateStoreError) { try await store.remove() } catch { throw BrokerError(error) }
        try await admission.signedOut()
        guard unfinished.isEmpty else {
            throw BrokerError(.providerError, "signed out here; the provider's sign-out did not finish: " + unfinished.joined(separator: "; "))
        }
        return ["account": .string(options.account), "provider_session_ended": .boolean(endedAtProvider), "refresh_token_revoked": .boolean(revoked)]
    }
}
