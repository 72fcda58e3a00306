import Foundation

/// A redirect URI registered with an authorization server, and the exact-match rule that
/// decides whether a navigation is the authorization response coming back to it.
///
/// Matching follows RFC 6749 §3.1.2, RFC 8252 §7 and RFC 9700 §4.1.3 (exact string matching):
/// the scheme compares case-insensitively; user-info, host, port and path compare exactly, with
/// their percent-encoding as written. There are no prefix matches, so `com.example:/cbx`,
/// `com.example:/cb/../cb`, `com.example:/c%62` and `http://127.0.0.1:PORT@evil/cb` are not
/// the redirect URI `com.example:/cb`. For a loopback redirect URI, RFC 8252 §7.3's "any port"
/// rule can be switched on with ``PortMatching/anyPort``.
public struct RedirectURI: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The three kinds of redirect URI a native application may register (RFC 8252 §7).
    public enum Kind: String, Sendable, Hashable {
        /// A private-use URI scheme, such as `com.example.app:/oauth2redirect`.
        case customScheme
        /// `http` to a loopback address: `127.0.0.1`, `[::1]` or `localhost`.
        case loopback
        /// A claimed `https` URL.
        case https
    }

    /// How the port of a loopback redirect URI is compared.
    public enum PortMatching: String, Sendable, Hashable, Codable {
        /// The port must be the registered one (the default).
        case exact
        /// Any port on the same loopback host and path matches (RFC 8252 §7.3).
        case anyPort
    }

    /// The redirect URI as it was given, to be sent as `redirect_uri`.
    public let string: String
    /// Which kind of redirect URI this is.
    public let kind: Kind
    /// How the port is compared; ``PortMatching/anyPort`` only for loopback URIs.
    public let portMatching: PortMatching

    /// The scheme, lowercased.
    public var scheme: String { parts.scheme }
    /// The host as written (`nil` for `scheme:/path` URIs), IPv6 literals in brackets.
    public var host: String? { parts.host }
    /// The effective port: the explicit one, or 80/443 for `http`/`https`.
    public var port: Int? { parts.port }
    /// The path as written, percent-encoding included.
    public var path: String { parts.path }

    private let parts: Parts
    /// Query items written into the redirect URI itself; a response must carry them unchanged.
    public let fixedQueryItems: [(name: String, value: String)]

    /// Parses and validates a redirect URI.
    /// - Throws: ``RedirectURIError`` when the string is not an absolute URI, has a fragment
    ///   (forbidden by RFC 6749 §3.1.2), uses a scheme that cannot be a redirect target
    ///   (`javascript`, `data`, `file`, `about`, `blob`), is plain `http` to a non-loopback host,
    ///   or asks for ``PortMatching/anyPort`` on a URI that is not loopback.
    public init(_ string: String, portMatching: PortMatching = .exact) throws(RedirectURIError) {
        guard !string.isEmpty, string.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .malformed(string)
        }
        guard let components = URLComponents(string: string), let parts = Parts(components) else {
            throw .malformed(string)
        }
        guard components.percentEncodedFragment == nil else { throw .hasFragment(string) }
        let kind: Kind
        switch parts.scheme {
        case "https":
            guard parts.host?.isEmpty == false else { throw .malformed(string) }
            kind = .https
        case "http":
            guard let host = parts.host, Self.loopbackHosts.contains(host.lowercased()) else {
                throw .insecureHTTP(string)
            }
            kind = .loopback
        case "javascript", "data", "file", "about", "blob", "ws", "wss", "ftp":
            throw .forbiddenScheme(parts.scheme)
        default:
            kind = .customScheme
        }
        if portMatching == .anyPort, kind != .loopback { throw .anyPortRequiresLoopback(string) }
        let fixed = try? FormURLEncoding.decode(components.percentEncodedQuery ?? "")
        guard let fixed else { throw .malformed(string) }
        self.string = string
        self.kind = kind
        self.portMatching = portMatching
        self.parts = parts
        self.fixedQueryItems = fixed
    }

    /// Whether `candidate` (an absolute URL string, as a navigation reports it) is a response
    /// sent to this redirect URI. Query and fragment are the response and are not compared,
    /// except that query items written into the redirect URI itself must be present.
    public func matches(_ candidate: String) -> Bool {
        guard let components = URLComponents(string: candidate), let other = Parts(components) else {
            return false
        }
        guard other.scheme == parts.scheme,
              other.user == parts.user,
              other.host == parts.host,
              other.path == parts.path
        else { return false }
        if other.port != parts.port, portMatching == .exact || other.port == nil { return false }
        if fixedQueryItems.isEmpty { return true }
        guard let query = try? FormURLEncoding.decode(components.percentEncodedQuery ?? "") else { return false }
        return fixedQueryItems.allSatisfy { item in query.contains { $0 == item } }
    }

    /// Whether a URL string uses this redirect URI's scheme (case-insensitively).
    public func sharesScheme(with candidate: String) -> Bool {
        guard let colon = candidate.firstIndex(of: ":") else { return false }
        return candidate[..<colon].lowercased() == parts.scheme
    }

    /// The redirect URI as given.
    public var description: String { string }

    public static func == (lhs: RedirectURI, rhs: RedirectURI) -> Bool {
        lhs.string == rhs.string && lhs.portMatching == rhs.portMatching
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(string)
        hasher.combine(portMatching)
    }

    static let loopbackHosts: Set<String> = ["127.0.0.1", "[::1]", "localhost"]

    enum CodingKeys: String, CodingKey {
        case string = "uri"
        case portMatching = "port_matching"
    }

    /// Decodes and validates a redirect URI (a stored one is checked like a new one).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let string = try container.decode(String.self, forKey: .string)
        let portMatching = try container.decodeIfPresent(PortMatching.self, forKey: .portMatching) ?? .exact
        do {
            try self.init(string, portMatching: portMatching)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .string, in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(string, forKey: .string)
        try container.encode(portMatching, forKey: .portMatching)
    }

    /// The compared parts of a URI: everything but query and fragment.
    private struct Parts: Sendable, Hashable {
        let scheme: String
        let user: String?
        let host: String?
        let port: Int?
        let path: String

        init?(_ components: URLComponents) {
            guard let scheme = components.scheme?.lowercased(), !scheme.isEmpty else { return nil }
            self.scheme = scheme
            let password = components.percentEncodedPassword.map { ":" + $0 } ?? ""
            self.user = components.percentEncodedUser.map { $0 + password }
            self.host = components.percentEncodedHost
            switch (components.port, scheme) {
            case (let explicit?, _): self.port = explicit
            case (nil, "http"): self.port = 80
            case (nil, "https"): self.port = 443
            default: self.port = nil
            }
            self.path = components.percentEncodedPath
        }
    }
}

/// Why a string is not an acceptable redirect URI.
public enum RedirectURIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not an absolute URI (or contains spaces or control characters).
    case malformed(String)
    /// Redirect URIs must not contain a fragment (RFC 6749 §3.1.2).
    case hasFragment(String)
    /// This scheme can never be a redirect target.
    case forbiddenScheme(String)
    /// Plain `http` is only allowed to a loopback host (RFC 8252 §8.3).
    case insecureHTTP(String)
    /// ``RedirectURI/PortMatching/anyPort`` applies to loopback redirect URIs only.
    case anyPortRequiresLoopback(String)

    public var description: String {
        switch self {
        case .malformed(let uri): "'\(uri)' is not an absolute URI"
        case .hasFragment(let uri): "redirect URI '\(uri)' must not contain a fragment"
        case .forbiddenScheme(let scheme): "'\(scheme):' cannot be a redirect URI scheme"
        case .insecureHTTP(let uri): "'\(uri)' uses plain http to a host that is not loopback"
        case .anyPortRequiresLoopback(let uri): "any-port matching needs a loopback redirect URI, not '\(uri)'"
        }
    }
}
