import Foundation
import WebAuthSupport

/// The transport rule for a provider: its issuer, its endpoints and its `jwks_uri` are https,
/// unless the issuer is on this machine (a loopback host: 127.0.0.0/8, ::1, `localhost`), or the
/// caller opted in to plain HTTP for a provider it trusts on its network.
extension ProviderConfiguration {
    /// Checks the issuer and every endpoint against the transport rule.
    /// - Parameter allowInsecureHTTP: accept plain `http` even though the issuer is not loopback.
    /// - Throws: ``OpenIDConnectError/insecureEndpoint(name:url:)`` naming the first one that breaks it.
    public func checkTransportSecurity(allowInsecureHTTP: Bool = false) throws(OpenIDConnectError) {
        try Self.checkTransportSecurity(issuer: issuer, allowInsecureHTTP: allowInsecureHTTP)
        let httpAllowed = allowInsecureHTTP || Self.isLoopback(issuer: issuer)
        let endpoints: [(name: String, url: URL?)] = [
            ("authorization_endpoint", authorizationEndpoint), ("token_endpoint", tokenEndpoint),
            ("userinfo_endpoint", userinfoEndpoint), ("end_session_endpoint", endSessionEndpoint),
            ("jwks_uri", jwksURI), ("revocation_endpoint", revocationEndpoint),
            ("device_authorization_endpoint", deviceAuthorizationEndpoint),
            ("pushed_authorization_request_endpoint", pushedAuthorizationRequestEndpoint),
            ("registration_endpoint", registrationEndpoint),
        ]
        for case let (name, url?) in endpoints {
            try Self.check(url.absoluteString, name: name, httpAllowed: httpAllowed)
        }
    }

    /// Checks the issuer alone: what discovery can check before asking the issuer anything.
    static func checkTransportSecurity(issuer: String, allowInsecureHTTP: Bool) throws(OpenIDConnectError) {
        try check(issuer, name: "issuer", httpAllowed: allowInsecureHTTP || isLoopback(issuer: issuer))
    }

    /// Whether `issuer`'s host is loopback: `localhost`, an address in 127.0.0.0/8, or `::1`.
    static func isLoopback(issuer: String) -> Bool {
        URLComponents(string: issuer)?.host.map(URIText.isLoopback(host:)) ?? false
    }

    private static func check(_ url: String, name: String, httpAllowed: Bool) throws(OpenIDConnectError) {
        switch URLComponents(string: url)?.scheme?.lowercased() {
        case "https": return
        case "http" where httpAllowed: return
        default: throw .insecureEndpoint(name: name, url: URLRedaction.redactingValues(url))
        }
    }
}
