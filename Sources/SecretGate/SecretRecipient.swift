import Foundation
import WebAuthSupport

/// Who would receive a ``ReleasedSecret``: a site (a page, a server asking for HTTP
/// authentication or a client certificate, a git remote, a container registry), a program, or an
/// application the sign-in broker serves.
public enum SecretRecipient: Sendable, Hashable, CustomStringConvertible {
    /// A site by scheme, host and port. `scheme` is `nil` when the asker did not say (Docker
    /// passes a registry as `name:port`); `port` is `nil` for the scheme's default port.
    case site(scheme: String?, host: String, port: Int?)
    /// A program we start, by what it is (`the program of webauth exec`, `WebKit's web process`).
    case process(String)
    /// An application calling the sign-in broker on the session bus, by the identity the broker
    /// gave it: a Flatpak app ID, or an executable's path (and an interpreter's script).
    case application(String)
    /// The FIDO2 security key a request is on (its PIN goes there, through libfido2, and nowhere else).
    case securityKey

    /// The site of a URL, or `nil` when it has no host.
    public static func site(of url: String) -> SecretRecipient? {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else { return nil }
        return .site(scheme: components.scheme?.lowercased(), host: host, port: components.port)
    }

    /// The host as compared: lower case, an IPv6 literal without its brackets.
    var comparableHost: String? {
        guard case .site(_, let host, _) = self else { return nil }
        return SecretRecipient.bare(host)
    }

    /// `host` lowercased and without the brackets of an IPv6 literal.
    static func bare(_ host: String) -> String {
        let lower = host.lowercased()
        return lower.hasPrefix("[") && lower.hasSuffix("]") ? String(lower.dropFirst().dropLast()) : lower
    }

    /// Whether `scheme` keeps a secret private on the way: `https`, or `http` to this machine.
    var isPrivateTransport: Bool {
        guard case .site(let scheme, let host, _) = self else { return true }
        return scheme == "https" || (scheme == "http" && URIText.isLoopback(host: SecretRecipient.bare(host)))
    }

    /// A site's `host` or `host:port`, as a `credential_hosts` key names it (a process: its name).
    public var hostAndPort: String {
        guard case .site(let scheme, let host, let port) = self else { return description }
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let name = port.map { "\(shown):\($0)" } ?? shown
        return scheme == "http" ? "http://\(name)" : name
    }

    public var description: String {
        switch self {
        case .site(let scheme, let host, let port):
            let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            return (scheme.map { "\($0)://" } ?? "") + shown + (port.map { ":\($0)" } ?? "")
        case .process(let name):
            return name
        case .application(let id):
            return "the app \(id)"
        case .securityKey:
            return "the security key"
        }
    }
}
