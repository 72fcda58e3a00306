import Foundation
import OpenIDConnect
import WebAuthSession

/// How a request shows the provider's page (a sign-in's, a sign-out's): in a window transient
/// for the caller's, with the account's cookies, for the request's time; a login script fills it
/// when the broker allows scripts, off screen when there is no display.
struct ProviderPage: Sendable {
    /// The session's options.
    let options: WebAuthenticationOptions
    /// The script's part, if there is a script.
    let scriptRunner: (@Sendable (WebAuthenticationSession) async throws -> Void)?

    init(account: String, parent: ParentWindow?, script: LoginScript?, limit: Duration, accounts: AccountStore,
         environment: [String: String], http: any HTTPClient) {
        var options = WebAuthenticationOptions()
        let hasDisplay = environment["DISPLAY"]?.isEmpty == false || environment["WAYLAND_DISPLAY"]?.isEmpty == false
        options.presentation = script != nil && !hasDisplay ? .headless : .window()
        options.parentWindow = parent
        options.timeout = limit
        options.websiteData = accounts.websiteData(account)
        options.secretHosts = script?.secretHosts ?? []
        self.options = options
        scriptRunner = script.map { script in
            { @Sendable (session: WebAuthenticationSession) async throws -> Void in try await script.run(in: session, environment: environment, http: http) }
        }
    }
}
