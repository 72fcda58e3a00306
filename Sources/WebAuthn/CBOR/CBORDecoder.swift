import Foundation

/// Reads CTAP2 CBOR from outside (an authenticator's answer, a relying party's attestation
/// object, a CTAP2 command a client sent): every input ends in a ``CBORValue`` or a
/// ``CBORError``, never a crash, however long, deep or malformed it is.
public struct CBORDecoder: Sendable {
    /// How deeply arrays and maps may nest (CTAP2 messages use 4 levels).
    public static let maximumDepth = 16
    /// The longest string or collection accepted, in bytes or elements.
    public static let maximumLength = 1 << 20

    private let bytes: [UInt8]
    private var offset = 0

    private init(_ data: Data) {
        bytes = Array(data)
    }

    /// The one item `data` holds.
    /// - Throws: ``CBORError``, also for bytes after the item.
    public static func decode(_ data: Data) throws(CBORError) -> CBORValue {
        let (value, length) = try decodePrefix(data)
        guard length == data.count else { throw CBORError(.trailingBytes, at: length) }
        return value
    }

    /// The item at the start of `data` and how many bytes it took (authenticator data carries
    /// a COSE key followed by extensions, with no length between them).
    /// - Throws: ``CBORError``.
    public static func decodePrefix(_ data: Data) throws(CBORError) -> (value: CBORValue, length: Int) {
        var decoder = CBORDecoder(data)
        let value = try decoder.item(depth: 0)
        return (value, decoder.offset)
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        guard depth <= Self.maximumDepth else { throw CBORError(.tooDeep, at: offset) }
        let start = offset
        let initial = try byte()
        let major = initial >> 5
        if major == 7 {
            switch initial {
            case 0xF4: return .bool(false)
            case 0xF5: return .bool(true)
            case 0xF6: return .null
            default: throw CBORError(.unsupported(initialByte: initial), at: start)
            }
        }
        guard major != 6 else { throw CBORError(.unsupported(initialByte: initial), at: start) }
        let argument = try self.argument(initial, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(Data(try take(argument)))
        case 3:
            guard let text = String(validating: try take(argument), as: UTF8.self) else { throw CBORError(.invalidText, at: start) }
            return .text(text)
        case 4:
            let count = try length(argument)
            var elements: [CBORValue] = []
            for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        default:
            let count = try length(argument)
            var entries: [(key: CBORValue, value: CBORValue)] = []
            var keys = Set<Data>()
            for _ in 0..<count {
                let keyStart = offset
                let key = try item(depth: depth + 1)
                guard keys.insert(Data(bytes[keyStart..<offset])).inserted else { throw CBORError(.duplicateKey, at: keyStart) }
                entries.append((key, try item(depth: depth + 1)))
            }
            return .map(entries)
        }
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw CBORError(.truncated, at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The argument of the item whose initial byte is `initial`; indefinite lengths and the
    /// reserved values 28-30 are refused.
    private mutating func argument(_ initial: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        let info = initial & 0x1F
        let size: Int
        switch info {
        case 0..<24: return UInt64(info)
        case 24: size = 1
        case 25: size = 2
        case 26: size = 4
        case 27: size = 8
        default: throw CBORError(.unsupported(initialByte: initial), at: start)
        }
        var value: UInt64 = 0
        for _ in 0..<size { value = value << 8 | UInt64(try byte()) }
        let shortest: UInt64 = switch size { case 1: 24; case 2: 0x100; case 4: 0x1_0000; default: 0x1_0000_0000 }
        guard value >= shortest else { throw CBORError(.notShortest, at: start) }
        return value
    }

    /// A collection's element count, which must be plausible for what is left of the input.
    private func length(_ argument: UInt64) throws(CBORError) -> Int {
        guard argument <= UInt64(Self.maximumLength), Int(argument) <= bytes.count - offset else { throw CBORError(.tooLong, at: offset) }
        return Int(argument)
    }

    private mutating func take(_ argument: UInt64) throws(CBORError) -> ArraySlice<UInt8> {
        let count = try length(argument)
        defer { offset += count }
        return bytes[offset..<offset + count]
    }
}
