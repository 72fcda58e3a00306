/// Why bytes are not a CBOR data item ``CBORDecoder`` accepts; `offset` is where reading stopped.
public struct CBORError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Problem: Sendable, Hashable {
        /// The input ended inside an item.
        case truncated
        /// A major type, additional information or simple value CTAP2 does not use (a tag, a
        /// float, an indefinite length, `undefined`).
        case unsupported(initialByte: UInt8)
        /// Items nested deeper than ``CBORDecoder/maximumDepth``.
        case tooDeep
        /// A length beyond what the input holds, or than ``CBORDecoder/maximumLength``.
        case tooLong
        /// A text string that is not UTF-8.
        case invalidText
        /// A map that has the same key twice.
        case duplicateKey
        /// Bytes after the one item the input should hold.
        case trailingBytes
        /// An integer or length not in its shortest form (CTAP2's canonical CBOR forbids them, and
        /// two spellings of one map key would otherwise slip past the duplicate check).
        case notShortest
    }

    /// What was wrong.
    public let problem: Problem
    /// The byte offset where reading stopped.
    public let offset: Int

    /// An error for `problem` at `offset`.
    public init(_ problem: Problem, at offset: Int) {
        self.problem = problem
        self.offset = offset
    }

    public var description: String {
        let what = switch problem {
        case .truncated: "the input ends inside an item"
        case .unsupported(let byte): "an item CTAP2 does not use (initial byte 0x\(String(byte, radix: 16)))"
        case .tooDeep: "items nested too deeply"
        case .tooLong: "a length longer than the input"
        case .invalidText: "a text string that is not UTF-8"
        case .duplicateKey: "a map with a repeated key"
        case .trailingBytes: "bytes after the item"
        case .notShortest: "a number not in its shortest form"
        }
        return "not CTAP2 CBOR: \(what) at byte \(offset)"
    }
}
