import Foundation

/// RFC 3986's rules for the text of a URI's parts that every module compares alike: unreserved
/// characters, percent-escapes, a host's normal form, and whether a host is this machine's.
package enum URIText {
    /// Why a part's text cannot be normalised.
    package enum Failure: Error, Sendable, Hashable {
        /// A `%` not followed by two hex digits.
        case badPercentEscape
        /// An IPv6 literal that does not parse.
        case badIPv6Literal
    }

    /// RFC 3986 §2.3: ALPHA / DIGIT / "-" / "." / "_" / "~".
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// The value of one hex digit.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A host in lower case with its escapes normalised; an IPv6 literal in canonical form.
    package static func normalizedHost(_ raw: String) throws(Failure) -> String {
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
    package static func percentEscapes(_ text: String) throws(Failure) -> String {
        var bytes = Array(text.utf8)[...]
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard bytes.count >= 2, let high = hexValue(bytes.removeFirst()), let low = hexValue(bytes.removeFirst()) else {
                throw .badPercentEscape
            }
            let decoded = high << 4 | low
            if isUnreserved(decoded) {
                out.append(decoded)
            } else {
                out += Array("%\(String(format: "%02X", decoded))".utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
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
}
