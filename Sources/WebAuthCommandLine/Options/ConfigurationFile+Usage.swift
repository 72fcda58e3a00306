import Foundation
import SignInFiles

/// The `--config` file as the commands read it: ``SignInFiles/ConfigurationFile`` (the parser,
/// in SignInFiles so the fuzzer reaches it), whose every ``ConfigurationFileError`` becomes a
/// ``CommandFailure`` with ``ExitStatus/usage`` and the same message.
package struct ConfigurationFile {
    private let file: SignInFiles.ConfigurationFile

    /// The file, for messages.
    package var path: String { file.path }

    /// Reads `path`.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/usage``: missing, unreadable or malformed.
    package init(commandPath path: String) throws(CommandFailure) {
        file = try Self.usage { () throws(ConfigurationFileError) in try SignInFiles.ConfigurationFile(path: path) }
    }

    private init(_ file: SignInFiles.ConfigurationFile) {
        self.file = file
    }

    /// The file at `path`, else the default one (``defaultPath(_:)``) when there is one, else `nil`.
    /// - Throws: ``CommandFailure`` with ``ExitStatus/usage``: as ``init(commandPath:)``.
    package static func chosen(_ path: String?, environment: [String: String]) throws(CommandFailure) -> ConfigurationFile? {
        try usage { () throws(ConfigurationFileError) in try SignInFiles.ConfigurationFile.chosen(path, environment: environment) }
            .map(ConfigurationFile.init)
    }

    /// The keys a file may hold (snake_case), as `login --help` lists them.
    static var keys: [String] { SignInFiles.ConfigurationFile.keys }

    /// What to do about a file's fault: it is the file to check (not `webauth help`), and `login --help` lists its keys.
    static let advice = "Check its path and contents; `webauth login --help` lists the keys it may hold (under --config)."

    /// `$XDG_CONFIG_HOME/webauth/config.json`, else `~/.config/webauth/config.json`.
    package static func defaultPath(_ environment: [String: String]) -> String {
        SignInFiles.ConfigurationFile.defaultPath(environment)
    }

    /// The text under `key`.
    /// - Throws: ``CommandFailure`` when the value is there but is not text.
    package func string(_ key: String) throws(CommandFailure) -> String? {
        try Self.usage { () throws(ConfigurationFileError) in try file.string(key) }
    }

    /// The yes/no under `key`.
    /// - Throws: ``CommandFailure`` when the value is there but is not a boolean.
    package func bool(_ key: String) throws(CommandFailure) -> Bool? {
        try Self.usage { () throws(ConfigurationFileError) in try file.bool(key) }
    }

    /// Scopes under `key`: a list, or one space-separated string.
    /// - Throws: ``CommandFailure`` when the value is there but is neither.
    package func scopes(_ key: String) throws(CommandFailure) -> [String]? {
        try Self.usage { () throws(ConfigurationFileError) in try file.scopes(key) }
    }

    /// Extra authorization parameters under `key`: a dictionary of strings.
    /// - Throws: ``CommandFailure`` when the value is there but is not one.
    package func parameters(_ key: String) throws(CommandFailure) -> [String: String]? {
        try Self.usage { () throws(ConfigurationFileError) in try file.parameters(key) }
    }

    /// `read()`'s value, or its ``ConfigurationFileError`` as a usage failure with the same message.
    private static func usage<Value>(_ read: () throws(ConfigurationFileError) -> Value) throws(CommandFailure) -> Value {
        do { return try read() } catch { throw CommandFailure(.usage, error.message, advice: advice) }
    }
}
