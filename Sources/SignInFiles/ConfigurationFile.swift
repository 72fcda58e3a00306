import Foundation
import OpenIDConnect
import WebAuthSupport

/// The client settings in a `--config` file: JSON, or a property list like the `PlusAuth.plist`
/// of AppAuth's iOS tutorials. Keys may sit at the top level or under `credentials`, in
/// snake_case or camelCase:
///
/// ```json
/// {"issuer": "https://id.example.com", "client_id": "my-app",
///  "redirect_uri": "com.example.app:/oauth2redirect", "scopes": ["openid", "profile"]}
/// ```
/// ```xml
/// <dict><key>credentials</key><dict>
///   <key>clientId</key><string>my-app</string>
///   <key>issuer</key><string>https://id.example.com</string>
/// </dict></dict>
/// ```
///
/// The CLI turns a ``ConfigurationFileError`` into a usage failure with the same message.
package struct ConfigurationFile {
    private let values: [String: Any]
    /// The file, for messages.
    package let path: String

    /// Reads `path`.
    /// - Throws: ``ConfigurationFileError``: missing, unreadable or malformed.
    package init(path: String) throws(ConfigurationFileError) {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw ConfigurationFileError(.unreadable, path: path, "cannot read the configuration file \(path): \(Self.whyUnreadable(path))")
        }
        try self.init(data: data, path: path)
    }

    /// Why `path` could not be read, in words (Foundation's own end in a period and name no cause).
    private static func whyUnreadable(_ path: String) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "there is no such file" }
        return isFolder.boolValue ? "it is a folder" : "it cannot be read (its permissions?)"
    }

    /// Reads the file's contents `data` (JSON or a property list); `path` names it in messages.
    /// - Throws: ``ConfigurationFileError``: malformed, not a dictionary, or an unknown key.
    package init(data: Data, path: String) throws(ConfigurationFileError) {
        self.path = path
        let parsed: Any
        if ConfigurationFileFormat.isPropertyList(data) {
            do { parsed = try PropertyListSerialization.propertyList(from: data, format: nil) } catch {
                throw ConfigurationFileError(.malformed, path: path, "the configuration file \(path) is not a valid property list")
            }
        } else {
            do { parsed = try JSONSerialization.jsonObject(with: data) } catch {
                throw ConfigurationFileError(.malformed, path: path, "the configuration file \(path) is not valid JSON: "
                    + (JSONSyntaxError.first(in: data)?.description ?? "it cannot be read as JSON"))
            }
        }
        guard let dictionary = parsed as? [String: Any] else {
            throw ConfigurationFileError(.malformed, path: path, "the configuration file \(path) is not a JSON object or a property-list dictionary")
        }
        var values = dictionary
        if let credentials = dictionary["credentials"] as? [String: Any] {
            values.merge(credentials) { _, nested in nested }
        }
        for key in values.keys where !Self.keys.contains(ConfigurationFileFormat.snakeCase(key)) && key != "credentials" {
            throw ConfigurationFileError(.unknownKey, path: path, Spelling.unknown("key", key, among: Self.keys) + " in \(path)")
        }
        self.values = values
    }

    /// The file at `path`, else the default one (``defaultPath(_:)``) when there is one, else `nil`.
    /// - Throws: ``ConfigurationFileError``: as ``init(path:)``.
    package static func chosen(_ path: String?, environment: [String: String]) throws(ConfigurationFileError) -> ConfigurationFile? {
        if let path { return try ConfigurationFile(path: path) }
        let fallback = defaultPath(environment)
        return FileManager.default.fileExists(atPath: fallback) ? try ConfigurationFile(path: fallback) : nil
    }

    /// `$XDG_CONFIG_HOME/webauth/config.json`, else `~/.config/webauth/config.json`: a command
    /// given no `--config` reads its network keys and `credential_hosts` there.
    package static func defaultPath(_ environment: [String: String]) -> String {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/webauth/config.json"
    }

    /// The keys a configuration file may hold (each also in camelCase).
    package static var keys: [String] { ConfigurationFileFormat.all }

    /// The text under `key` (snake_case; the camelCase spelling is looked up too).
    /// - Throws: ``ConfigurationFileError`` when the value is there but is not text.
    package func string(_ key: String) throws(ConfigurationFileError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value as? String, !text.isEmpty else {
            throw ConfigurationFileError(.wrongType, path: path, "\(key) in \(path) must be a non-empty string")
        }
        return text
    }

    /// The yes/no under `key`: a JSON boolean or a property-list `<true/>`/`<false/>`.
    /// - Throws: ``ConfigurationFileError`` when the value is there but is not a boolean.
    package func bool(_ key: String) throws(ConfigurationFileError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value as? Bool else { throw ConfigurationFileError(.wrongType, path: path, "\(key) in \(path) must be true or false") }
        return flag
    }

    /// Scopes under `key`: a list, or one space-separated string.
    /// - Throws: ``ConfigurationFileError`` when the value is there but is neither.
    package func scopes(_ key: String) throws(ConfigurationFileError) -> [String]? {
        guard let value = value(key) else { return nil }
        if let list = value as? [String] { return list }
        if let text = value as? String { return text.split(separator: " ").map(String.init) }
        throw ConfigurationFileError(.wrongType, path: path, "\(key) in \(path) must be a list of strings or one string")
    }

    /// Extra authorization parameters under `key`: a dictionary of strings.
    /// - Throws: ``ConfigurationFileError`` when the value is there but is not one.
    package func parameters(_ key: String) throws(ConfigurationFileError) -> [String: String]? {
        guard let value = value(key) else { return nil }
        guard let dictionary = value as? [String: String] else {
            throw ConfigurationFileError(.wrongType, path: path, "\(key) in \(path) must be an object of strings")
        }
        return dictionary
    }

    private func value(_ key: String) -> Any? {
        values[key] ?? values[Self.camelCase(key)]
    }

    private static func camelCase(_ key: String) -> String {
        let parts = key.split(separator: "_")
        return (parts.first.map(String.init) ?? "") + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
