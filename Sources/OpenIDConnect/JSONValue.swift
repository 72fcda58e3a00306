import Foundation

/// A JSON value: what a page script returns, and (later) claims and provider documents.
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `null` (also what `undefined` becomes).
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Thrown when text is not JSON.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What the decoder said, in words (no Swift type names): its description of the fault
        /// and, when it gave one, where it is.
        public let message: String

        public var description: String { message }
    }

    /// Parses JSON text (any value at the top level, not only objects and arrays).
    public init(parsing text: String) throws(ParseError) {
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch DecodingError.dataCorrupted(let context) {
            // Foundation's parser says where (`... around line 1, column 1.`) in its underlying error.
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            throw ParseError(message: Self.sentence(detail ?? context.debugDescription))
        } catch {
            throw ParseError(message: "not valid JSON")
        }
    }

    /// `text` without its final period, to sit inside a longer message.
    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string, if this is a string.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The number, if this is a number.
    public var numberValue: Double? { if case .number(let value) = self { value } else { nil } }
    /// The Boolean, if this is a Boolean.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The member `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? { if case .object(let members) = self { members[key] } else { nil } }

    /// Compact JSON text with sorted keys.
    public var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
