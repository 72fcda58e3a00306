import Foundation

/// Where requests go, a ``ProxySetting`` resolved: what the web view's proxy settings and the
/// HTTP client's proxy resolver are made from.
package enum ProxyRoute: Sendable, Hashable {
    /// The desktop's settings (WebKit's default mode, GLib's default resolver).
    case system
    /// Straight to every host.
    case direct
    /// Through the proxy for the URL's scheme (`http`, `https`), except to the hosts in `ignoring`;
    /// a scheme with no proxy goes direct.
    case proxies([String: Endpoint], ignoring: [String])

    /// One proxy: its URL without credentials, and the credentials for its `407`.
    package struct Endpoint: Sendable, Hashable, CustomStringConvertible {
        /// `scheme://host:port`, with no user or password.
        package let url: String
        /// The user name, if the URL had one.
        package let user: String?
        /// The password, if the URL had one.
        package let password: String?

        package init(_ url: URL) {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
            user = components.user.flatMap { $0.removingPercentEncoding ?? $0 }
            password = components.password.flatMap { $0.removingPercentEncoding ?? $0 }
            (components.user, components.password) = (nil, nil)
            if components.path == "/" { components.path = "" }
            self.url = components.string ?? url.absoluteString
        }

        /// The URL, with the user but never the password.
        package var description: String {
            guard let user, let scheme = url.range(of: "://") else { return url }
            return String(url[..<scheme.upperBound]) + user + "@" + String(url[scheme.upperBound...])
        }
    }

    /// This route, with `host` (`host` or `host:port`) reached without a proxy.
    package func reachingDirectly(_ host: String) -> ProxyRoute {
        guard case .proxies(let proxies, let ignoring) = self else { return self }
        return .proxies(proxies, ignoring: ignoring + [host])
    }

    /// The proxies this route names (for their credentials).
    package var endpoints: [Endpoint] {
        if case .proxies(let proxies, _) = self { return Array(Set(proxies.values)) }
        return []
    }

    /// The endpoint whose host and port are `host`:`port` (the one asking for credentials).
    package func endpoint(host: String, port: Int) -> Endpoint? {
        endpoints.first { URLComponents(string: $0.url).map { $0.host == host && ($0.port ?? 80) == port } ?? false }
    }
}
