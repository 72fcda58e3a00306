import Foundation
import OpenIDConnect
import WebAuthExitStatus
import WebAuthSession
import WebAuthSupport

/// How `webauth broker` runs: what its callers may ask for, when it leaves, the route of its
/// requests and pages for each account, and how it finds a saved client's secret or key.
public struct BrokerConfiguration: Sendable {
    /// Whether `SignIn` and `SignOut` accept a login script (`script`): for tests and CI only, as
    /// a script types secrets from the broker's environment into whatever page it is given.
    public var allowsScripts = false
    /// How long the broker waits with no request in flight and no caller before it exits: it is
    /// started again on the next call (D-Bus activation). Default: 10 minutes.
    public var idleTimeout: Duration = .seconds(600)
    /// The environment the broker started with, secrets included (a login script reads its values
    /// from it; the process's own environment no longer holds them).
    public var environment: [String: String]
    /// How an account's requests and pages reach its provider, given the route its saved
    /// sign-in was made with (`nil`: a new account, or one saved without a route). Default: the
    /// environment's proxy and the system's authorities for every account (`webauth broker`
    /// resolves the configuration file's keys over the saved route, as `webauth token` does).
    public var route: @Sendable (SavedRoute?) throws(ReportedFailure) -> BrokerRoute = { _ in BrokerRoute() }

    /// How a saved sign-in's client authenticates, from what the sign-in records (``SavedClient``):
    /// its secret or private key found where `webauth token` finds it. Default: a client that
    /// authenticates with nothing is served, any other is refused.
    public var clientAuthentication: @Sendable (SavedClient?) throws(ReportedFailure) -> ClientAuthentication = { client throws(ReportedFailure) in
        guard (client?.authenticationMethod ?? .none) == SavedClient.AuthenticationMethod.none else {
            throw ReportedFailure(.usage, "the account's client authenticates with a secret or a key, which this broker cannot read")
        }
        return .none
    }

    /// Whether the broker has a display to show a person's sign-in window on: `DISPLAY` or
    /// `WAYLAND_DISPLAY` when it started (the property `CanShowWindows`).
    public var hasDisplay: Bool { GraphicalSession.hasDisplay(environment) }

    /// The defaults, with `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }
}
