import Foundation
import OpenIDConnect
import WebAuthSession

/// How `webauth broker` runs: what its callers may ask for, when it leaves, the route of its
/// requests and pages, and how it finds a saved client's secret or key.
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
    /// The proxy of every request (refresh, revocation, sign-in) and page. Default: the environment's.
    public var proxy: ProxySetting = .environment
    /// Authorities trusted beside the system's, for every request and page.
    public var caFile: TrustedCAFile?
    /// The certificate every request and page presents to a provider that asks for one.
    public var clientCertificate: ClientCertificate?
    /// How a saved sign-in's client authenticates, from what the sign-in records (``SavedClient``):
    /// its secret or private key found where `webauth token` finds it. Default: a client that
    /// authenticates with nothing is served, any other is refused.
    public var clientAuthentication: @Sendable (SavedClient?) throws(ReportedFailure) -> ClientAuthentication = { client throws(ReportedFailure) in
        guard (client?.authenticationMethod ?? .none) == SavedClient.AuthenticationMethod.none else {
            throw ReportedFailure(.usage, "the account's client authenticates with a secret or a key, which this broker cannot read")
        }
        return .none
    }

    /// The defaults, with `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// A client for the broker's requests, on its route, each request ending after `timeout`.
    func http(timeout: Duration = .seconds(30)) -> SoupHTTPClient {
        SoupHTTPClient(proxy: proxy, caFile: caFile, clientCertificate: clientCertificate, timeout: timeout)
    }

    /// `options` on the broker's route.
    func routed(_ options: WebAuthenticationOptions) -> WebAuthenticationOptions {
        var options = options
        options.proxy = proxy
        options.caFile = caFile
        options.clientCertificate = clientCertificate
        return options
    }
}
