import Foundation
import WebAuthSupport

/// RFC 3986 §6.2.2–6.2.3 normalisation, for comparing URIs that are written differently but
/// mean the same: the scheme and host in lower case, percent-escapes of unreserved characters
/// decoded and the others in upper-case hex, the default port dropped, an empty `http(s)` path
/// written `/`, and IPv6 literals in their canonical form. Dot segments are not resolved.
package enum URINormalization {
    /// The parts of a URI that say where it points: everything but query and fragment.
    package struct Parts: Sendable, Hashable {
        /// The scheme, in lower case.
        package let scheme: String
        /// The user information (`user:password`), normalised, if any.
        package let userInfo: String?
        /// The host, normalised (lower case, IPv6 literals canonical and in brackets), if any.
        package let host: String?
        /// The explicit port, or `nil` when absent or the scheme's default (80 for `http`, 443 for `https`).
        package let port: Int?
        /// The path, normalised; `/` for an `http(s)` URI with an empty path.
        package let path: String

        /// The port a connection would use: the explicit one or the scheme's default.
        package var effectivePort: Int? { port ?? URINormalization.defaultPort(of: scheme) }

        /// `scheme:` then `//userinfo@host:port` when there is an authority, then the path.
        package var string: String {
            var text = scheme + ":"
            if let host {
                text += "//" + (userInfo.map { $0 + "@" } ?? "") + host + (port.map { ":\($0)" } ?? "")
            }
            return text + path
        }
    }

    /// Why a URI cannot be normalised.
    package enum Failure: Error, Sendable, Hashable {
        /// Not an absolute URI.
        case notAbsolute
        /// A `%` not followed by two hex digits.
        case badPercentEscape
        /// An IPv6 literal that does not parse.
        case badIPv6Literal

        init(_ failure: URIText.Failure) {
            switch failure {
            case .badPercentEscape: self = .badPercentEscape
            case .badIPv6Literal: self = .badIPv6Literal
            }
        }
    }

    /// The normalised parts of `uri`, an absolute URI.
    package static func parts(of uri: String) throws(Failure) -> Parts {
        guard let components = URLComponents(string: uri) else { throw .notAbsolute }
        return try parts(of: components)
    }

    /// The normalised parts of already-split `components`.
    package static func parts(of components: URLComponents) throws(Failure) -> Parts {
        guard let scheme = components.scheme?.lowercased(), !scheme.isEmpty else { throw .notAbsolute }
        let password = try components.percentEncodedPassword.map { raw throws(Failure) in ":" + (try percentEscapes(raw)) } ?? ""
        let userInfo = try components.percentEncodedUser.map { raw throws(Failure) in (try percentEscapes(raw)) + password }
        let host = try components.percentEncodedHost.map { raw throws(Failure) in try normalizedHost(raw) }
        let port = components.port == defaultPort(of: scheme) ? nil : components.port
        var path = try percentEscapes(components.percentEncodedPath)
        if path.isEmpty, host != nil, scheme == "http" || scheme == "https" { path = "/" }
        return Parts(scheme: scheme, userInfo: userInfo, host: host, port: port, path: path)
    }

    /// 80 for `http`, 443 for `https`, else `nil`.
    static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    /// A host in lower case with its escapes normalised; an IPv6 literal in canonical form.
    static func normalizedHost(_ raw: String) throws(Failure) -> String {
        do { return try URIText.normalizedHost(raw) } catch { throw Failure(error) }
    }

    /// `text` with percent-escapes of unreserved characters decoded and the rest in upper-case hex.
    static func percentEscapes(_ text: String) throws(Failure) -> String {
        do { return try URIText.percentEscapes(text) } catch { throw Failure(error) }
    }
}
