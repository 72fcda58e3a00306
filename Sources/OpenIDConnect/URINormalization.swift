import Foundation

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

    /// Whether `host` (as written in a URI) is a loopback host: `localhost`, an IPv4 address in
    /// 127.0.0.0/8, or the IPv6 address `::1` (RFC 8252 §7.3, RFC 6761 §6.3).
    package static func isLoopback(host: String) -> Bool {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let normalized = try? normalizedHost(bracketed) else { return false }
        if normalized == "localhost" || normalized == "[::1]" { return true }
        var address = in_addr()
        guard inet_pton(AF_INET, normalized, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
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
        let host = try percentEscapes(raw).lowercased()
        guard host.hasPrefix("[") else { return host }
        guard host.hasSuffix("]") else { throw .badIPv6Literal }
        var address = in6_addr()
        let literal = String(host.dropFirst().dropLast())
        guard inet_pton(AF_INET6, literal, &address) == 1 else { throw .badIPv6Literal }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { throw .badIPv6Literal }
        return "[" + buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } + "]"
    }

    /// `text` with percent-escapes of unreserved characters decoded and the rest in upper-case hex.
    static func percentEscapes(_ text: String) throws(Failure) -> String {
        var bytes = Array(text.utf8)[...]
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard bytes.count >= 2, let high = FormURLEncoding.hexValue(bytes.removeFirst()), let low = FormURLEncoding.hexValue(bytes.removeFirst()) else {
                throw .badPercentEscape
            }
            let decoded = high << 4 | low
            if FormURLEncoding.isUnreserved(decoded) {
                out.append(decoded)
            } else {
                out += Array("%\(String(format: "%02X", decoded))".utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
