import Foundation
import OpenIDConnect

/// Test users for one login script (`webauth batch FILE`): each entry names a user and gives the
/// values its script reads with `{var: NAME}` (``LoginScript/variables``). As JSON or YAML, a list:
/// ```yaml
/// - name: alice
///   values:
///     username: alice
///     password: {env: ALICE_PASSWORD}
/// - name: bob
///   values:
///     username: bob
///     password: {command: "pass show test/bob"}
/// ```
/// A value is a literal (a user name, an address) or a source as in a script: `{env: VAR}`,
/// `{file: PATH}`, `{command: CMD, pass_environment: [VAR, ...]}`, read only when typed. A value
/// whose name says it is a secret (it contains `password` or `secret`) must be a source, and a
/// literal is never typed into a password field. Names are unique and usable as file names.
public struct LoginBatch: Sendable, Hashable, Decodable {
    /// One user of the batch.
    public struct Entry: Sendable, Hashable, Decodable {
        /// The user's name in the results (letters, digits, `.`, `_`, `-`, `@`, `+`; not starting with `.`).
        public var name: String
        /// The values `{var: NAME}` reads, by name.
        public var values: [String: LoginValue]

        /// An entry named `name` with `values`.
        public init(name: String, values: [String: LoginValue]) {
            self.name = name
            self.values = values
        }

        private enum CodingKeys: String, CodingKey, CaseIterable { case name, values }

        /// Reads `{name: NAME, values: {NAME: TEXT | {env: VAR} | {file: PATH} | {command: CMD}, ...}}`.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            guard Self.isUsableName(name) else {
                throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription:
                    "'\(name)' cannot name a user: use letters, digits, '.', '_', '-', '@' or '+' (not a leading '.')")
            }
            values = try container.decodeIfPresent([String: BatchValue].self, forKey: .values)?.mapValues(\.value) ?? [:]
        }

        private static func isUsableName(_ name: String) -> Bool {
            !name.isEmpty && !name.hasPrefix(".")
                && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "._-@+".unicodeScalars.contains($0) }
        }
    }

    /// The users, in the file's order.
    public var entries: [Entry]

    /// A batch of `entries`.
    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// Reads the list; a name given twice is an error.
    public init(from decoder: any Decoder) throws {
        entries = try decoder.singleValueContainer().decode([Entry].self)
        var seen = Set<String>()
        for entry in entries where !seen.insert(entry.name).inserted {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "the name \(entry.name) is given twice"))
        }
    }

    /// The entries of shard `index` of `count`: entry k (from 0) belongs to shard k mod `count`.
    public func shard(_ index: Int, of count: Int) -> [Entry] {
        entries.enumerated().filter { $0.offset % count == index }.map(\.element)
    }
}

/// A batch value as written: a literal, or `{env: VAR}`, `{file: PATH}`, `{command: CMD, pass_environment: [...]}`.
/// A value whose name says it is a secret (it contains `password` or `secret`) is never a literal.
private struct BatchValue: Decodable {
    let value: LoginValue

    private enum Key: String, CodingKey, CaseIterable { case env, file, command, passEnvironment = "pass_environment" }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            let name = decoder.codingPath.last?.stringValue ?? ""
            guard !["password", "secret"].contains(where: { name.lowercased().contains($0) }) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                    "\(name) is a secret: give it as {env: VAR}, {file: PATH} or {command: CMD}, never written in the batch file"))
            }
            value = .literal(text)
            return
        }
        try decoder.rejectUnknownKeys(Key.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: Key.self)
        let sources = [Key.env, .file, .command].filter { container.contains($0) }
        guard sources.count == 1, let source = sources.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "a value is text, or exactly one of env, file, command"))
        }
        let text = try container.decode(String.self, forKey: source)
        let passing = try container.decodeIfPresent([String].self, forKey: .passEnvironment)
        guard passing == nil || source == .command else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "pass_environment goes with command only"))
        }
        value = switch source {
        case .env: .environment(text)
        case .file: .file(text)
        default: .command(text, passing: passing ?? [])
        }
    }
}
