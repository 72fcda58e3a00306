import Foundation

/// The origin of the document that makes a WebAuthn request, as the engine saw it commit:
/// never as the page's script says. Its serialisation goes into the clientDataJSON.
public struct WebAuthnOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `https` or `http`, lower case.
    public let scheme: String
    /// The host, lower case, without the brackets of an IPv6 literal.
    public let host: String
    /// The port, nil for the scheme's default.
    public let port: Int?

    /// The origin of `url` (a committed document's URI); nil for one without a tuple origin
    /// (`about:blank`, `data:`, `file:`, a custom scheme), which no request may come from.
    public init?(url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http", var host = components.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        let port = components.port
        self.init(scheme: scheme, host: host, port: port == (scheme == "https" ? 443 : 80) ? nil : port)
    }

    /// An origin of its parts (already lower case, the port nil when it is the default).
    public init(scheme: String, host: String, port: Int?) {
        (self.scheme, self.host, self.port) = (scheme, host, port)
    }

    /// `scheme://host[:port]`, as HTML serialises an origin.
    public var description: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shown)" + (port.map { ":\($0)" } ?? "")
    }

    /// Whether the host is `localhost` or a name under it, which resolves to this machine only
    /// and makes `http` a secure context.
    public var isLocalhost: Bool { host == "localhost" || host.hasSuffix(".localhost") }

    /// Whether a document of this origin is a secure context WebAuthn may run in: `https`, or
    /// `http` on `localhost`. (An IP address is not a domain, so it cannot be a relying party anyway.)
    public var isSecure: Bool { scheme == "https" || isLocalhost }
}
