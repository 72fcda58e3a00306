import Foundation

/// CTAP2's canonical CBOR encoding (CTAP 2.1 §8): the shortest form of every length and
/// integer, definite lengths only, and map keys sorted by their encoded bytes, shorter first.
extension CBORValue {
    /// The canonical encoding.
    public var encoded: Data {
        var output = Data()
        encode(into: &output)
        return output
    }

    private func encode(into output: inout Data) {
        switch self {
        case .unsigned(let value): Self.head(0, value, into: &output)
        case .negative(let value): Self.head(1, value, into: &output)
        case .bytes(let value):
            Self.head(2, UInt64(value.count), into: &output)
            output.append(value)
        case .text(let value):
            let utf8 = Data(value.utf8)
            Self.head(3, UInt64(utf8.count), into: &output)
            output.append(utf8)
        case .array(let elements):
            Self.head(4, UInt64(elements.count), into: &output)
            for element in elements { element.encode(into: &output) }
        case .map(let entries):
            Self.head(5, UInt64(entries.count), into: &output)
            let sorted = entries.map { (key: $0.key.encoded, value: $0.value.encoded) }.sorted { Self.canonicallyBefore($0.key, $1.key) }
            for entry in sorted {
                output.append(entry.key)
                output.append(entry.value)
            }
        case .bool(let value): output.append(value ? 0xF5 : 0xF4)
        case .null: output.append(0xF6)
        }
    }

    /// Whether the encoded key `a` sorts before `b`: shorter first, then byte by byte.
    static func canonicallyBefore(_ a: Data, _ b: Data) -> Bool {
        a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
    }

    /// A data item's first bytes: its major type and argument, in the shortest form.
    private static func head(_ major: UInt8, _ argument: UInt64, into output: inout Data) {
        let type = major << 5
        switch argument {
        case 0..<24: output.append(type | UInt8(argument))
        case 24...0xFF: output.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xFFFF: output.append(contentsOf: [type | 25, UInt8(argument >> 8), UInt8(argument & 0xFF)])
        case 0x1_0000...0xFFFF_FFFF:
            output.append(type | 26)
            output.append(contentsOf: (0..<4).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) })
        default:
            output.append(type | 27)
            output.append(contentsOf: (0..<8).reversed().map { UInt8(truncatingIfNeeded: argument >> ($0 * 8)) })
        }
    }
}
