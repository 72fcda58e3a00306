import Foundation

/// Which proxy the sign-in page and ``SoupHTTPClient`` go through; both take the same route.
public enum ProxySetting: Sendable, Hashable, CustomStringConvertible {
    /// The environment, as curl reads it: `https_proxy`/`HTTPS_PROXY` for https, `http_proxy`
    /// for http, `all_proxy`/`ALL_PROXY` for both, minus the hosts in `no_proxy`/`NO_PROXY`
    /// (loopback hosts are proxied unless `no_proxy` names them); a value with no scheme
    /// (`user:password@proxy:3128`) is an http proxy, as curl takes it. When none is set, the
    /// desktop's proxy settings (GNOME's, through GLib) decide. The default.
    case environment
    /// No proxy: every host is reached directly.
    case none
    /// Every request through `url` (`http://[user[:password]@]host:port`), except requests to
    /// the hosts in `ignoring` (`example.com` and `.example.com` take subdomains too, `10.0.0.0/8`
    /// takes a range). The user and password answer the proxy's `407`.
    case custom(url: URL, ignoring: [String] = [])

    /// The setting with any password in a URL hidden, for messages and logs.
    public var description: String {
        switch self {
        case .environment: "environment"
        case .none: "none"
        case .custom(let url, let ignoring):
            ProxyRoute.Endpoint(url).description + (ignoring.isEmpty ? "" : " except " + ignoring.joined(separator: ","))
        }
    }

    /// The route this setting gives in `environment`.
    package func route(in environment: [String: String]) -> ProxyRoute {
        switch self {
        case .none: return .direct
        case .custom(let url, let ignoring): return .proxies(["http": .init(url), "https": .init(url)], ignoring: ignoring)
        case .environment:
            // As curl: a value with no scheme (`alice:pw@proxy:3128`) is an http proxy.
            let value = { (names: [String]) in
                names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }.flatMap { URL(string: $0.contains("://") ? $0 : "http://" + $0) }
            }
            let all = value(["all_proxy", "ALL_PROXY"])
            var proxies: [String: ProxyRoute.Endpoint] = [:]
            proxies["http"] = (value(["http_proxy"]) ?? all).map(ProxyRoute.Endpoint.init)
            proxies["https"] = (value(["https_proxy", "HTTPS_PROXY"]) ?? all).map(ProxyRoute.Endpoint.init)
            guard !proxies.isEmpty else { return .system }
            let ignoring = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return ignoring.contains("*") ? .direct : .proxies(proxies, ignoring: ignoring)
        }
    }
}
