import Foundation
import OpenIDConnect
import WebAuthSession

/// How one account's requests (refresh, revocation, the code exchange) and pages reach its
/// provider: as ``BrokerConfiguration/route`` resolves it from the route the account's sign-in
/// was saved with.
public struct BrokerRoute: Sendable {
    /// The proxy of the account's requests and pages.
    public var proxy: ProxySetting
    /// Authorities trusted beside the system's.
    public var caFile: TrustedCAFile?
    /// The certificate presented to a provider that asks for one.
    public var clientCertificate: ClientCertificate?
    /// What a sign-in made on this route saves for later runs (``SavedClient/route``): paths and
    /// addresses, never a password.
    public var saved: SavedRoute?

    /// A route; by default the environment's proxy and the system's authorities, no certificate.
    public init(proxy: ProxySetting = .environment, caFile: TrustedCAFile? = nil, clientCertificate: ClientCertificate? = nil,
                saved: SavedRoute? = nil) {
        self.proxy = proxy
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.saved = saved
    }

    /// A client for the account's requests on this route, each request ending after `timeout`.
    func http(timeout: Duration = .seconds(30)) -> SoupHTTPClient {
        SoupHTTPClient(proxy: proxy, caFile: caFile, clientCertificate: clientCertificate, timeout: timeout)
    }

    /// `options` on this route.
    func routed(_ options: WebAuthenticationOptions) -> WebAuthenticationOptions {
        var options = options
        options.proxy = proxy
        options.caFile = caFile
        options.clientCertificate = clientCertificate
        return options
    }
}
