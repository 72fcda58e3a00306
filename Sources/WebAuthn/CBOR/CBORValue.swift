import Foundation

/// A CBOR data item (RFC 8949) of the kinds CTAP2 and WebAuthn use: integers, byte and text
/// strings, arrays, maps, `true`, `false` and `null`. No tags, no floats, no indefinite lengths:
/// CTAP2's canonical form has none, so ``CBORDecoder`` refuses them.
public enum CBORValue: Sendable, Hashable {
    /// An integer: major types 0 and 1, from -2⁶⁴ to 2⁶⁴-1 (``negative(_:)`` holds the rest).
    case unsigned(UInt64)
    /// A negative integer -1-n, stored as n (major type 1), so every CBOR integer fits.
    case negative(UInt64)
    /// A byte string.
    case bytes(Data)
    /// A UTF-8 text string.
    case text(String)
    /// An array.
    case array([CBORValue])
    /// A map, in the order it was read or will be sorted into when written.
    case map([(key: CBORValue, value: CBORValue)])
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// A signed integer.
    public static func int(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// The integer, if this is one that fits in `Int`.
    public var intValue: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    /// The bytes, if this is a byte string.
    public var bytesValue: Data? { if case .bytes(let value) = self { value } else { nil } }
    /// The text, if this is a text string.
    public var textValue: String? { if case .text(let value) = self { value } else { nil } }
    /// The elements, if this is an array.
    public var arrayValue: [CBORValue]? { if case .array(let value) = self { value } else { nil } }
    /// The Boolean, if this is `true` or `false`.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The entries, if this is a map.
    public var mapValue: [(key: CBORValue, value: CBORValue)]? { if case .map(let value) = self { value } else { nil } }

    /// The value of the map entry whose key is `key`, if this is a map that has it.
    public subscript(key: CBORValue) -> CBORValue? {
        mapValue?.first { $0.key == key }?.value
    }

    /// The value of the map entry whose key is the integer `key`.
    public subscript(key: Int) -> CBORValue? { self[.int(key)] }

    /// The value of the map entry whose key is the text `key`.
    public subscript(key: String) -> CBORValue? { self[.text(key)] }

    public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(encoded)
    }
}

extension CBORValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A text literal.
    public init(stringLiteral value: String) { self = .text(value) }
}
