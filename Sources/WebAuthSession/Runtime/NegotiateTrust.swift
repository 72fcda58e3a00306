import Foundation

/// Which sites WebKit's network stack answers a `Negotiate` (Kerberos/SPNEGO) challenge for.
///
/// libsoup decides it alone, from `SOUP_GSSAPI_TRUSTED_URIS` in its own process's environment,
/// read once; with none, it trusts every `https` site and no `http` one. The page's requests run in
/// WebKit's network process, which has no setting for it but inherits this process's environment
/// when it starts: so ``GTKEnvironment`` writes the variable, with the rest of what WebKit's
/// processes read, before GTK and the first web context.
enum NegotiateTrust {
    /// The environment variable libsoup reads: URIs separated by commas.
    static let variable = "SOUP_GSSAPI_TRUSTED_URIS"

    /// Checks that each site is `http(s)://host[:port]` with nothing after it.
    /// - Throws: ``WebAuthenticationError/invalidOption(_:)-swift.enum.case`` naming the first that is not.
    static func validate(_ sites: [URL]) throws(WebAuthenticationError) {
        for site in sites {
            guard let components = URLComponents(url: site, resolvingAgainstBaseURL: false),
                  ["http", "https"].contains(components.scheme?.lowercased()), components.host?.isEmpty == false,
                  components.user == nil, components.path.isEmpty || components.path == "/",
                  components.query == nil, components.fragment == nil else {
                throw .invalidOption(.negotiateSite(site))
            }
        }
    }

    /// The variable's value for `sites` beside `existing` (the environment's), or nil to leave it
    /// as it is. Each site is written with its port (the scheme's default when it has none), the
    /// way libsoup compares them.
    static func value(for sites: [URL], existing: String?) -> String? {
        guard !sites.isEmpty else { return nil }
        let written = sites.compactMap { site -> String? in
            guard let scheme = site.scheme?.lowercased(), let host = site.host else { return nil }
            let port = site.port ?? (scheme == "https" ? 443 : 80)
            let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            return "\(scheme)://\(bracketed):\(port)"
        }
        return ([existing].compactMap { $0 }.filter { !$0.isEmpty } + written).joined(separator: ",")
    }
}
