import Foundation

/// Where a JSON text first breaks the grammar (RFC 8259), as a line and column a person can go
/// to: Foundation's `JSONSerialization` only says that it is not valid.
struct JSONSyntaxError: Error, CustomStringConvertible {
    /// The line, from 1.
    let line: Int
    /// The column, from 1, in characters.
    let column: Int
    /// What is wrong there.
    let problem: String

    var description: String { "line \(line), column \(column): \(problem)" }

    /// The first error in `data`, or nil when it is one valid JSON value.
    static func first(in data: Data) -> JSONSyntaxError? {
        let bytes = Array(data)
        var scanner = JSONScanner(bytes: bytes)
        do throws(JSONScanner.Failure) {
            try scanner.document()
            return nil
        } catch {
            let before = bytes[..<min(error.offset, bytes.count)]
            let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            return JSONSyntaxError(line: before.count { $0 == UInt8(ascii: "\n") } + 1,
                                   column: String(decoding: bytes[lineStart..<before.endIndex], as: UTF8.self).count + 1,
                                   problem: error.problem)
        }
    }
}

/// A recursive-descent reading of JSON that stops at the first byte the grammar does not allow.
private struct JSONScanner {
    struct Failure: Error {
        let offset: Int
        let problem: String
    }

    let bytes: [UInt8]
    var index = 0
    /// The arrays and objects open at ``index``.
    var depth = 0

    /// How deep arrays and objects may nest, as in Foundation's `JSONSerialization`: the scanner
    /// recurses once per level, and 2 847 unclosed `[` (found by the config fuzz target)
    /// overflowed the stack of a debug build; a file deeper than this is refused where it passes it.
    static let maximumDepth = 512

    mutating func document() throws(Failure) {
        try value()
        skipSpace()
        if index < bytes.count { throw fail("more text after the end of the JSON value") }
    }

    private mutating func value() throws(Failure) {
        skipSpace()
        guard index < bytes.count else { throw fail("the text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try members(close: "}", member: { (scanner: inout JSONScanner) throws(Failure) in
            scanner.skipSpace()
            guard scanner.peek == UInt8(ascii: "\"") else { throw scanner.fail("expected a name in double quotes") }
            try scanner.string()
            scanner.skipSpace()
            guard scanner.peek == UInt8(ascii: ":") else { throw scanner.fail("expected ':' after the name") }
            scanner.index += 1
            try scanner.value()
        })
        case UInt8(ascii: "["): try members(close: "]") { (scanner: inout JSONScanner) throws(Failure) in try scanner.value() }
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): number()
        default: throw fail("unexpected '\(String(decoding: [bytes[index]], as: UTF8.self))'")
        }
    }

    /// An object's or array's members, separated by commas, up to `close`.
    private mutating func members(close: Unicode.Scalar, member: (inout JSONScanner) throws(Failure) -> Void) throws(Failure) {
        guard depth < Self.maximumDepth else { throw fail("more than \(Self.maximumDepth) arrays and objects inside each other") }
        depth += 1
        defer { depth -= 1 }
        index += 1
        skipSpace()
        if peek == UInt8(ascii: close) { index += 1; return }
        while true {
            try member(&self)
            skipSpace()
            guard let next = peek else { throw fail("the text ends before '\(close)'") }
            index += 1
            if next == UInt8(ascii: close) { return }
            guard next == UInt8(ascii: ",") else { index -= 1; throw fail("expected ',' or '\(close)'") }
        }
    }

    private mutating func string() throws(Failure) {
        index += 1
        while let byte = peek {
            index += 1
            if byte == UInt8(ascii: "\"") { return }
            if byte == UInt8(ascii: "\\") { index += 1 } else if byte < 0x20 { index -= 1; throw fail("a control character inside a string") }
        }
        throw fail("the text ends inside a string")
    }

    private mutating func literal(_ word: String) throws(Failure) {
        for byte in word.utf8 {
            guard peek == byte else { throw fail("expected \(word)") }
            index += 1
        }
    }

    private mutating func number() {
        while let byte = peek, "+-.eE0123456789".utf8.contains(byte) { index += 1 }
    }

    fileprivate mutating func skipSpace() {
        while let byte = peek, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
    }

    fileprivate var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    fileprivate func fail(_ problem: String) -> Failure { Failure(offset: index, problem: problem) }
}
