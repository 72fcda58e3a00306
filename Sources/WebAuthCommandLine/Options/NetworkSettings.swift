import Foundation
import OpenIDConnect
import SignInFiles
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// How a command reaches the provider, resolved once: the page and every request of the command
/// (discovery, token, refresh, userinfo, revocation, device grant) take the same route.
package struct NetworkSettings {
    /// The proxy for the page and the requests.
    package let proxy: ProxySetting
    /// Authorities trusted beside the system's, for the page and the requests.
    package let caFile: TrustedCAFile?
    /// The languages to ask the page for (empty: the user's locale).
    package var languages: [String]
    /// The certificate the page and the requests present to a provider that asks for one.
    package let clientCertificate: ClientCertificate?
    /// The sites whose pages get Kerberos (Negotiate) from the user's ticket (empty: libsoup's rule).
    package var negotiateSites: [URL]
    /// What a sign-in made on this route keeps, for later commands (never a password); `nil` when
    /// it takes the system's and the environment's route.
    package let saved: SavedRoute?

    /// The settings of a command given no network flags (the broker, for one account): the
    /// configuration file `config` (else the default one, when there is one), else the route
    /// `saved` (the sign-in's), else the environment.
    package static func unflagged(config: String?, saved: SavedRoute? = nil, environment: [String: String]) throws(CommandFailure) -> NetworkSettings {
        let options: NetworkOptions
        do { options = try NetworkOptions.parse([]) } catch { throw CommandFailure(.localFailure, "the network options cannot be set up: \(error)") }
        return try options.settings(from: ConfigurationFile.chosen(config, environment: environment), saved: saved, environment: environment)
    }

    /// A client for a command's requests with no deadline of its own: libsoup's, the page's own
    /// network stack (``SoupHTTPClient``), through ``proxy``, trusting ``caFile`` and presenting
    /// ``clientCertificate``.
    package func http(timeout: Duration = .seconds(30)) -> any HTTPClient {
        SoupHTTPClient(proxy: proxy, caFile: caFile, clientCertificate: clientCertificate, timeout: timeout)
    }


}
