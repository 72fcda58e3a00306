import Foundation
import WebAuthCommandLine
import WebAuthSession

/// The engine's share of a command's ``NetworkSettings``: what its network process trusts, and the page's options.
extension NetworkSettings {
    /// Configures the engine for these settings before its first page: it trusts
    /// ``negotiateSites`` (WebKit's network process reads them once, when it starts).
    /// - Throws: ``CommandFailure`` (usage) for Negotiate sites with `websiteData` ephemeral (WebKit
    ///   does no Negotiate there) or not written `http(s)://host[:port]`.
    func prepareEngine(websiteData: WebAuthenticationOptions.WebsiteData) throws(CommandFailure) {
        guard !negotiateSites.isEmpty else { return }
        guard case .persistent = websiteData else {
            throw CommandFailure(.usage, "--negotiate-site needs --profile: WebKit does Negotiate (Kerberos) only in a session that keeps its data")
        }
        do { try WebAuthEngine.configure(EngineConfiguration(trustedNegotiateSites: negotiateSites)) } catch {
            throw CommandFailure(.usage, "\(error)")
        }
    }

    /// `options` with the page's share of these settings.
    func applied(to options: WebAuthenticationOptions) -> WebAuthenticationOptions {
        var options = options
        options.languages = languages
        options.proxy = proxy
        options.caFile = caFile
        options.clientCertificate = clientCertificate
        return options
    }
}
