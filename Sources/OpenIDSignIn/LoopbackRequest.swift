import Foundation

/// One HTTP/1.1 request as the loopback listener reads it from its connection: the request line,
/// the `Host` header and a body of `Content-Length` bytes. Nothing else of HTTP is needed to
/// receive a browser's redirect.
struct LoopbackRequest: Sendable, Hashable {
    /// Why bytes are not (yet) a request.
    enum Reading: Sendable, Hashable {
        /// More bytes are needed.
        case incomplete
        /// They can never be one (answered `400`, or `413` when too large).
        case malformed(status: Int)
        /// A whole request.
        case complete(LoopbackRequest)
    }

    /// The most a request may hold, head and body: a redirect's query or form body is far smaller.
    static let maximumSize = 64 * 1024

    let method: String
    /// The path, without the query.
    let path: String
    /// The query without its `?`, if there is one.
    let query: String?
    /// The `Host` header, lowercased; `nil` without one.
    let host: String?
    /// The body (a form POST's fields), if it has one.
    let body: String?

    /// Reads `bytes` received so far on one connection.
    static func read(_ bytes: [UInt8]) -> Reading {
        guard bytes.count <= maximumSize else { return .malformed(status: 413) }
        guard let headEnd = headEnd(in: bytes) else { return .incomplete }
        let lines = String(decoding: bytes[..<headEnd], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.first?.split(separator: " ", omittingEmptySubsequences: false) ?? []
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), requestLine[1].hasPrefix("/") else {
            return .malformed(status: 400)
        }
        var host: String?
        var length = 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "host":
                guard host == nil else { return .malformed(status: 400) }
                host = value.lowercased()
            case "content-length":
                guard let parsed = Int(value), parsed >= 0 else { return .malformed(status: 400) }
                length = parsed
            case "transfer-encoding":
                return .malformed(status: 400)  // a browser's redirect is never chunked
            default:
                continue
            }
        }
        let bodyStart = headEnd + 4
        guard bodyStart + length <= maximumSize else { return .malformed(status: 413) }
        guard bytes.count >= bodyStart + length else { return .incomplete }
        let target = requestLine[1]
        let mark = target.firstIndex(of: "?")
        return .complete(LoopbackRequest(
            method: String(requestLine[0]), path: String(target[..<(mark ?? target.endIndex)]),
            query: mark.map { String(target[target.index(after: $0)...]) }, host: host,
            body: length > 0 ? String(decoding: bytes[bodyStart..<(bodyStart + length)], as: UTF8.self) : nil))
    }

    /// The index of the blank line that ends the head.
    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }
}
