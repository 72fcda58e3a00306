import OpenIDConnect
import WebAuthSupport

/// A call's `a{sv}` options, read one by one by name and type; ``finish()`` refuses what was not
/// read (an unknown option, with the nearest known name). Every failure is
/// ``BrokerErrorName/invalidArgument``, and no message repeats a value (an option may hold a path
/// or a parameter the caller did not mean to show), only names, types and sizes.
public struct BusOptions: Sendable {
    /// The longest string an option may hold, in bytes: URLs, paths and names are far shorter.
    public static let maximumStringLength = 8192
    /// The most items an `as` or `a{ss}` option may hold.
    public static let maximumCount = 64

    private let values: [String: BusValue]
    private var read: Set<String> = []

    /// The options `values`.
    public init(_ values: [String: BusValue]) {
        self.values = values
    }

    /// `key` as `s`, if given.
    public mutating func string(_ key: String) throws(BrokerError) -> String? {
        guard let value = try take(key, "s") else { return nil }
        guard case .string(let text) = value else { return nil }
        try Self.check(text, key)
        return text
    }

    /// `key` as `s` holding a document (a login script's text): line breaks allowed, no NUL, at
    /// most `maximumBytes`.
    public mutating func document(_ key: String, maximumBytes: Int) throws(BrokerError) -> String? {
        guard case .string(let text)? = try take(key, "s") else { return nil }
        guard text.utf8.count <= maximumBytes else { throw .invalidArgument("option '\(key)' holds \(text.utf8.count) bytes; at most \(maximumBytes)") }
        guard !text.utf8.contains(0) else { throw .invalidArgument("option '\(key)' holds a NUL") }
        return text
    }

    /// `key` as `h` (an index into the message's file descriptors), if given.
    public mutating func fileDescriptorIndex(_ key: String) throws(BrokerError) -> Int32? {
        guard case .fileDescriptorIndex(let index)? = try take(key, "h") else { return nil }
        guard index >= 0 else { throw .invalidArgument("option '\(key)' is a negative file descriptor index") }
        return index
    }

    /// Refuses `key` if given, with `reason`: an option the contract no longer takes.
    public mutating func refuse(_ key: String, _ reason: String) throws(BrokerError) {
        guard values[key] != nil else { return }
        read.insert(key)
        throw .invalidArgument("option '\(key)' is not accepted: \(reason)")
    }

    /// `key` as `u`, if given.
    public mutating func uint32(_ key: String) throws(BrokerError) -> UInt32? {
        guard case .uint32(let number)? = try take(key, "u") else { return nil }
        return number
    }

    /// `key` as `as`, if given.
    public mutating func strings(_ key: String) throws(BrokerError) -> [String]? {
        guard case .strings(let items)? = try take(key, "as") else { return nil }
        guard items.count <= Self.maximumCount else { throw .invalidArgument("option '\(key)' has \(items.count) items; at most \(Self.maximumCount)") }
        for item in items { try Self.check(item, key) }
        return items
    }

    /// `key` as `a{ss}`, if given.
    public mutating func stringMap(_ key: String) throws(BrokerError) -> [String: String]? {
        guard case .stringMap(let map)? = try take(key, "a{ss}") else { return nil }
        guard map.count <= Self.maximumCount else { throw .invalidArgument("option '\(key)' has \(map.count) entries; at most \(Self.maximumCount)") }
        for (name, value) in map {
            try Self.check(name, key)
            try Self.check(value, key)
        }
        return map
    }

    /// Refuses every option not read: the caller misspelt it, or it belongs to another method.
    public func finish() throws(BrokerError) {
        guard let unknown = values.keys.filter({ !read.contains($0) }).sorted().first else { return }
        guard unknown.utf8.count <= 64, unknown.allSatisfy({ $0.isASCII && !$0.isNewline }) else {
            throw .invalidArgument("an unknown option of \(unknown.utf8.count) bytes (known: \(read.sorted().joined(separator: ", ")))")
        }
        throw .invalidArgument(Spelling.unknown("option", unknown, among: read))
    }

    /// The value of `key` if it is there, checked to be of type `signature`; the key is read either way.
    private mutating func take(_ key: String, _ signature: String) throws(BrokerError) -> BusValue? {
        read.insert(key)
        guard let value = values[key] else { return nil }
        guard value.signature == signature else {
            throw .invalidArgument("option '\(key)' must be of type \(signature), not \(value.signature.utf8.count <= 32 ? value.signature : "a longer type")")
        }
        return value
    }

    /// Refuses a string too long to be a URL, path or name, or holding a NUL or a line break.
    private static func check(_ text: String, _ key: String) throws(BrokerError) {
        guard text.utf8.count <= maximumStringLength else {
            throw .invalidArgument("option '\(key)' holds \(text.utf8.count) bytes; at most \(maximumStringLength)")
        }
        guard !text.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) else {
            throw .invalidArgument("option '\(key)' holds a NUL or a line break")
        }
    }
}
