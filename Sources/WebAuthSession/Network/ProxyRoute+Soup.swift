internal import CWebKitGTK

extension ProxyRoute {
    /// Makes `session`'s requests take this route.
    func apply(to session: UnsafeMutablePointer<SoupSession>) {
        switch self {
        case .system:
            break  // a new session uses GLib's default resolver: the desktop's settings
        case .direct:
            soup_session_set_proxy_resolver(session, nil)
        case .proxies(let proxies, let ignoring):
            let resolver = GObjectReference(adopting: withCStringList(ignoring) { g_simple_proxy_resolver_new(nil, $0) }!)
            for (scheme, endpoint) in proxies {
                g_simple_proxy_resolver_set_uri_proxy(UnsafeMutablePointer(resolver.pointer), scheme, endpoint.url)
            }
            resolver.withPointer { soup_session_set_proxy_resolver(session, $0) }
        }
    }
}
