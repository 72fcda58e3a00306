import GLibKit
package import CSoup

extension ProxyRoute {
    /// Makes `session`'s requests take this route; returns the proxy a request to `url` goes
    /// through (`nil`: direct, or the desktop's settings decide).
    package func apply(to session: UnsafeMutablePointer<SoupSession>, for url: String) -> Endpoint? {
        switch self {
        case .system:
            return nil  // a new session uses GLib's default resolver: the desktop's settings
        case .direct:
            soup_session_set_proxy_resolver(session, nil)
            return nil
        case .proxies(let proxies, let ignoring):
            let resolver = GObjectReference(adopting: withCStringList(ignoring) { g_simple_proxy_resolver_new(nil, $0) }!)
            for (scheme, endpoint) in proxies {
                g_simple_proxy_resolver_set_uri_proxy(UnsafeMutablePointer(resolver.pointer), scheme, endpoint.url)
            }
            resolver.withPointer { soup_session_set_proxy_resolver(session, $0) }
            let chosen: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>? = try? resolver.withPointer { resolver in
                try GLibError.attempt { g_proxy_resolver_lookup(resolver, url, nil, $0) }
            }
            defer { g_strfreev(chosen) }
            let first = chosen?.pointee.map { String(cString: $0) }
            return proxies.values.first { $0.url == first }
        }
    }
}
