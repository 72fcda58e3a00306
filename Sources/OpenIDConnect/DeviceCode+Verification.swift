import Foundation
import WebAuthSupport

/// What a client checks of the verification URIs a device authorization response names before
/// it shows them (RFC 8628 §5.4, "Remote phishing"): a person is sent to that page to sign in,
/// so it must be https, and a page on another site than the provider's deserves a word of warning.
extension DeviceCode {
    /// Checks ``verificationURI`` and ``verificationURIComplete`` against the transport rule:
    /// https, or http to a loopback host (127.0.0.0/8, `::1`, `localhost`), or http to the
    /// issuer's own host when the issuer itself is http (a provider the caller already accepted
    /// over plain HTTP).
    /// - Throws: ``DeviceAuthorizationError/insecureVerificationURI(_:)`` naming the URI, its values hidden.
    package func checkVerificationURIs(issuer: String) throws(DeviceAuthorizationError) {
        let issuerComponents = URLComponents(string: issuer)
        for case let uri? in [verificationURI, verificationURIComplete] {
            let components = URLComponents(url: uri, resolvingAgainstBaseURL: false)
            let host = components?.host ?? ""
            switch components?.scheme?.lowercased() {
            case "https" where !host.isEmpty: continue
            case "http" where URIText.isLoopback(host: host): continue
            case "http" where !host.isEmpty && issuerComponents?.scheme?.lowercased() == "http"
                && issuerComponents?.host?.lowercased() == host.lowercased(): continue
            default: throw .insecureVerificationURI(URLRedaction.redactingValues(uri.absoluteString))
            }
        }
    }

    /// A warning for the person when ``verificationURI`` is on another site than `issuer`
    /// (one line, for stderr or a log), or `nil` when both are on the same site. The site of a
    /// host name is its last two labels (`login.example.com` and `id.example.com` are both
    /// `example.com`); an IP address or `localhost` is its own site.
    public func siteWarning(issuer: String) -> String? {
        guard let codeSite = Self.site(of: verificationURI.host), let issuerSite = Self.site(of: URLComponents(string: issuer)?.host),
              codeSite != issuerSite else { return nil }
        return "warning: the provider sends you to \(URLRedaction.redactingValues(verificationURI.absoluteString)), "
            + "on \(codeSite), not on its own site \(issuerSite): make sure that is the provider's page before you sign in there"
    }

    /// The site of `host`: an IP address or a single label as it is, else its last two labels, lowercased.
    package static func site(of host: String?) -> String? {
        guard var host = host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasSuffix(".") { host.removeLast() }
        if host.contains(":") || host.hasPrefix("[") || host.split(separator: ".").allSatisfy({ $0.allSatisfy(\.isNumber) }) {
            return host
        }
        return host.split(separator: ".").suffix(2).joined(separator: ".")
    }
}
