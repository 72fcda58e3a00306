import Foundation
import WebAuthSupport

/// `application/x-www-form-urlencoded`, the encoding of OAuth parameters in a query string,
/// a fragment and a form-post body (RFC 6749 Appendix B).
package enum FormURLEncoding {
    /// A `%` not followed by two hex digits, or bytes that are not UTF-8 once decoded.
    package struct MalformedError: Error, Sendable, Hashable {
        /// The `name=value` pair that could not be decoded.
        package let pair: String
    }

    /// Decodes `a=1&b=two+words` into ordered pairs. `+` is a space; empty segments are
    /// skipped; a name without `=` has the empty value. Repeated names are all kept, in order.
    package static func decode(_ encoded: some StringProtocol) throws(MalformedError) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for segment in Substring(encoded).split(separator: "&", omittingEmptySubsequences: true) {
            let (rawName, rawValue) = segment.firstIndex(of: "=").map {
                (segment[..<$0], segment[segment.index(after: $0)...])
            } ?? (segment[...], "")
            guard let name = percentDecode(rawName), let value = percentDecode(rawValue) else {
                throw MalformedError(pair: String(segment))
            }
            pairs.append((name, value))
        }
        return pairs
    }

    /// Encodes pairs for a query string or form body; only unreserved characters stay as they are.
    package static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { percentEncode($0.name) + "=" + percentEncode($0.value) }.joined(separator: "&")
    }

    /// `url` with `pairs` added after the query it already has (an endpoint's own parameters stay).
    package static func appending(_ pairs: [(name: String, value: String)], to url: URL) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
        components.percentEncodedQuery = existing + encode(pairs)
        return components.url!
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`).
    package static func percentEncode(_ string: String) -> String {
        var out = ""
        for byte in string.utf8 {
            if URIText.isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    private static func percentDecode(_ encoded: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.utf8.count)
        var iterator = encoded.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(URIText.hexValue), let low = iterator.next().flatMap(URIText.hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
