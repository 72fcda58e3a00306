import Foundation
import Yams

/// Batch files: YAML, or JSON (a subset of YAML).
extension LoginBatch {
    /// Reads the batch at `path`.
    /// - Throws: ``LoginBatchFileError``.
    public init(contentsOfFile path: String) throws(LoginBatchFileError) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .unreadable(path: path, message: error.localizedDescription)
        }
        try self.init(text: text, path: path)
    }

    /// Reads the batch `text`, the contents of the file at `path` (which names it in messages).
    /// - Throws: ``LoginBatchFileError/invalid(path:message:)``.
    package init(text: String, path: String) throws(LoginBatchFileError) {
        do { self = try YAMLDecoder().decode(LoginBatch.self, from: text) } catch {
            throw .invalid(path: path, message: LoginScript.reason(error, in: text))
        }
    }
}

/// Why a batch file could not be used.
public enum LoginBatchFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, message: String)
    /// The file is not a valid batch; `message` says what is wrong, and where.
    case invalid(path: String, message: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let message): "cannot read the batch file \(path): \(message)"
        case .invalid(let path, let message): "the batch file \(path) is not valid: \(message)"
        }
    }
}
