import Foundation
import OpenIDConnect
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// A saved sign-in, opened for use: refreshes are saved back to its store. The client's secret
/// comes from the options, else from where the sign-in says it is kept; its requests take the
/// command's route, else the one the sign-in was made with, and end at the command's deadline.
package struct SavedSignIn {
    package let state: AuthState
    package let store: any AuthStateStore
    package let authentication: ClientAuthentication
    /// The route of its requests (refresh, userinfo, revocation).
    package let network: NetworkSettings
    /// When the command's time is up: a request still unanswered then ends as a timeout (exit 5).
    package let deadline: CommandDeadline

    /// - Parameters:
    ///   - route: the command's flags (and `config`, else the default configuration file) over
    ///     the route the sign-in saved (``SavedClient/route``).
    ///   - deadline: the command's `--timeout`; a command without one gets
    ///     ``TimeoutOption/defaultSeconds`` from now.
    package init(profile: some ProfileChoice, secret: ClientSecretOptions, route: RouteOptions, config: String? = nil,
         deadline: CommandDeadline = CommandDeadline(seconds: TimeoutOption.defaultSeconds)) async throws(CommandFailure) {
        try await self.init(profile: profile, secret: secret, deadline: deadline) { saved throws(CommandFailure) in
            try route.settings(config: config, saved: saved)
        }
    }

    /// - Parameter network: the settings of the command's requests, given the route the sign-in saved.
    package init(profile: some ProfileChoice, secret: ClientSecretOptions, deadline: CommandDeadline,
         network: (SavedRoute?) throws(CommandFailure) -> NetworkSettings) async throws(CommandFailure) {
        self.deadline = deadline
        (state, store) = try await profile.savedState()
        if secret.namesNone, let registered = state.registration, registered.clientID == state.clientID {
            authentication = try ClientSecretOptions.authentication(of: registered)  // a client that registered itself
        } else {
            authentication = try secret.resolve(for: state.client)
        }
        self.network = try network(state.client?.route)
        if let reason = state.reauthenticationReason { throw CommandFailure(.signInRequired, "not signed in: \(reason)") }
    }

    /// The client for its requests: on ``network``'s route, ending at ``deadline``.
    package var http: any HTTPClient { deadline.http(network) }

    /// A manager that saves refreshes to the store, taking turns with other processes.
    package func manager() -> AuthStateManager {
        AuthStateManager(state: state, store: store, authentication: authentication, http: http)
    }
}
