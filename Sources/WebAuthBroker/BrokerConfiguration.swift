import Foundation

/// How `webauth broker` runs: what its callers may ask for and when it leaves.
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

    /// The defaults, with `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }
}
