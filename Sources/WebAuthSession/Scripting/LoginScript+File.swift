import Foundation
import Yams

/// Login scripts written as files: YAML, or JSON (a subset of YAML).
extension LoginScript {
    /// Reads the script at `path`.
    /// - Throws: ``LoginScriptFileError``.
    public init(contentsOfFile path: String) throws(LoginScriptFileError) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .unreadable(path: path, message: error.localizedDescription)
        }
        do { self = try YAMLDecoder().decode(LoginScript.self, from: text) } catch {
            throw .invalid(path: path, message: Self.reason(error))
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "missing '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context): "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: String(describing: error)
        }
    }
}

/// Why a login script file could not be used.
public enum LoginScriptFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, message: String)
    /// The file is not a valid script; `message` says what is wrong.
    case invalid(path: String, message: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let message): "cannot read the login script \(path): \(message)"
        case .invalid(let path, let message): "the login script \(path) is not valid: \(message)"
        }
    }
}
