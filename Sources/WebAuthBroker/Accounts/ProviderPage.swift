import Foundation
import OpenIDConnect
import WebAuthSession

/// How a request shows the provider's page (a sign-in's, a sign-out's): in a window transient
/// for the caller's, with the account's cookies, on the account's route, for the request's time.
/// With no display, off screen when a login script fills it (a broker that allows scripts) or, as
/// `webauth logout` does, for a sign-out (a page that asks something then fails once it stands
/// still); a sign-in for a person fails then, as `webauth login` does.
struct ProviderPage: Sendable {
    /// The session's options.
    let options: WebAuthenticationOptions
    /// The script's part, if there is a script.
    let scriptRunner: (@Sendable (WebAuthenticationSession) async throws -> Void)?

    init(account: String, parent: ParentWindow?, script: LoginScript?, signOut: Bool = false, limit: Duration, accounts: AccountStore,
         configuration: BrokerConfiguration, route: BrokerRoute, http: any HTTPClient) {
        let environment = configuration.environment
        var options = route.routed(WebAuthenticationOptions())
        options.presentation = !configuration.hasDisplay && (script != nil || signOut) ? .headless : .window()
        options.parentWindow = parent
        options.timeout = limit
        options.websiteData = accounts.websiteData(account)
        options.secretHosts = script?.secretHosts ?? []
        self.options = options
        let script = script ?? (options.presentation == .headless ? LoginScript([]) : nil)
        scriptRunner = script.map { script in
            { @Sendable (session: WebAuthenticationSession) async throws -> Void in try await script.run(in: session, environment: environment, http: http) }
        }
    }
}
