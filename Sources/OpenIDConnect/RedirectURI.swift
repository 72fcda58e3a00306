import Foundation
import WebAuthSupport

/// A redirect URI registered with an authorization server, and the exact-match rule that
/// decides whether a navigation is the authorization response coming back to it.
///
/// Matching follows RFC 6749 §3.1.2, RFC 8252 §7 and RFC 9700 §4.1.3 (exact matching) on URIs
/// normalised as RFC 3986 §6.2.2–6.2.3 says (`URINormalization`): the registered URI is
/// normalised once, at init, and every candidate before it is compared, so
/// `https://App.Example.com/cb`, `http://LOCALHOST:8080/cb`, `https://a.example:443/cb`,
/// `http://127.0.0.1:8080` (no path) and `com.example:/c%62` match what WebKit reports for
/// them. Beyond that, user-info, host, port and path compare exactly: there are no prefix
/// matches, so `com.example:/cbx`, `com.example:/cb/../cb`, `com.example:/CB` and
/// `http://127.0.0.1:PORT@evil/cb` are not the redirect URI `com.example:/cb`. The URI is
/// still sent to the provider exactly as given (``string``): strict providers compare strings.
/// For a loopback redirect URI, RFC 8252 §7.3's "any port" rule can be switched on with
/// ``PortMatching/anyPort``.
public struct RedirectURI: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The three kinds of redirect URI a native application may register (RFC 8252 §7).
    public enum Kind: String, Sendable, Hashable {
        /// A private-use URI scheme, such as `com.example.app:/oauth2redirect`.
        case customScheme
        /// `http` to a loopback address: 127.0.0.0/8, `[::1]` or `localhost`.
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
    /// The redirect URI normalised (RFC 3986 §6.2.2–6.2.3), without its query: what is matched.
    package var normalized: String { parts.string }
    /// Which kind of redirect URI this is.
    public let kind: Kind
    /// How the port is compared; ``PortMatching/anyPort`` only for loopback URIs.
    public let portMatching: PortMatching

    /// The scheme, lowercased.
    public var scheme: String { parts.scheme }
    /// The host, normalised (`nil` for `scheme:/path` URIs), IPv6 literals in brackets.
    public var host: String? { parts.host }
    /// The effective port: the explicit one, or 80/443 for `http`/`https`.
    public var port: Int? { parts.effectivePort }
    /// The path, normalised (`/` for an `http` URI written without one).
    public var path: String { parts.path }

    private let parts: URINormalization.Parts
    /// Query items written into the redirect URI itself; a response must carry them unchanged.
    public let fixedQueryItems: [(name: String, value: String)]

    /// Parses and validates a redirect URI.
    /// - Throws: ``RedirectURIError`` when the string is not an absolute URI, has a fragment
    ///   (forbidden by RFC 6749 §3.1.2), cannot be normalised (a broken percent-escape or IPv6
    ///   literal, a `.` or `..` path segment), uses a scheme that cannot be a redirect target
    ///   (`javascript`, `data`, `file`, `about`, `blob`), is plain `http` to a non-loopback host,
    ///   or asks for ``PortMatching/anyPort`` on a URI that is not loopback.
    public init(_ string: String, portMatching: PortMatching = .exact) throws(RedirectURIError) {
        guard !string.isEmpty, string.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .malformed(string)
        }
        guard let components = URLComponents(string: string), components.scheme?.isEmpty == false else {
            throw .malformed(string)
        }
        guard components.percentEncodedFragment == nil else { throw .hasFragment(string) }
        let parts: URINormalization.Parts
        do {
            _ = try URINormalization.percentEscapes(string)  // URLComponents would quietly re-encode a stray %
            parts = try URINormalization.parts(of: components)
        } catch {
            throw .notNormalizable(string)
        }
        guard !parts.path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) else {
            throw .notNormalizable(string)
        }
        let kind: Kind
        switch parts.scheme {
        case "https":
            guard parts.host?.isEmpty == false else { throw .malformed(string) }
            kind = .https
        case "http":
            guard let host = parts.host, URIText.isLoopback(host: host) else {
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
    /// sent to this redirect URI, both normalised. Query and fragment are the response and are
    /// not compared, except that query items written into the redirect URI itself must be present.
    public func matches(_ candidate: String) -> Bool {
        guard let components = URLComponents(string: candidate),
              let other = try? URINormalization.parts(of: components),
              matchesOrigin(other),
              other.userInfo == parts.userInfo,
              other.path == parts.path
        else { return false }
        if fixedQueryItems.isEmpty { return true }
        guard let query = try? FormURLEncoding.decode(components.percentEncodedQuery ?? "") else { return false }
        return fixedQueryItems.allSatisfy { item in query.contains { $0 == item } }
    }

    /// Whether a URL string uses this redirect URI's scheme (case-insensitively).
    package func sharesScheme(with candidate: String) -> Bool {
        guard let colon = candidate.firstIndex(of: ":") else { return false }
        return candidate[..<colon].lowercased() == parts.scheme
    }

    /// Whether a URL string points at this redirect URI's own scheme, host and registered port,
    /// normalised; path, query and fragment aside. A navigation there that does not
    /// ``matches(_:)`` is a near miss: it must not load. (With ``PortMatching/anyPort`` only the
    /// registered port counts: the other ports of a loopback host belong to other programs.)
    /// A loopback redirect URI's aliases are its own host: with `http://127.0.0.1:PORT/cb`,
    /// `http://localhost:PORT/…` and `http://[::1]:PORT/…` (the same listener's port) are near misses too.
    package func sharesOrigin(with candidate: String) -> Bool {
        guard let other = try? URINormalization.parts(of: candidate) else { return false }
        guard other.scheme == parts.scheme, other.effectivePort == parts.effectivePort else { return false }
        if other.host == parts.host { return true }
        guard kind == .loopback, let host = other.host else { return false }
        return URIText.isLoopback(host: host)
    }

    private func matchesOrigin(_ other: URINormalization.Parts) -> Bool {
        guard other.scheme == parts.scheme, other.host == parts.host else { return false }
        return other.effectivePort == parts.effectivePort || (portMatching == .anyPort && other.port != nil)
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
    /// RFC 3986 normalisation is not possible (a `%` without two hex digits, a broken IPv6
    /// literal), or the path has `.` or `..` segments, which browsers resolve before they report
    /// a navigation: such a URI could never be matched exactly.
    case notNormalizable(String)

    public var description: String {
        switch self {
        case .malformed(let uri): "'\(uri)' is not an absolute URI"
        case .hasFragment(let uri): "redirect URI '\(uri)' must not contain a fragment"
        case .forbiddenScheme(let scheme): "'\(scheme):' cannot be a redirect URI scheme"
        case .insecureHTTP(let uri): "'\(uri)' uses plain http to a host that is not loopback"
        case .anyPortRequiresLoopback(let uri): "any-port matching needs a loopback redirect URI, not '\(uri)'"
        case .notNormalizable(let uri): "redirect URI '\(uri)' cannot be normalised (a bad %-escape or IPv6 address, or a . or .. path segment)"
        }
    }
}
