import Foundation

/// Why a secret file was not read (``SecretFile``).
public enum SecretFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Group or others can write the file: whoever can write it could choose the secret.
    case writableByOthers(path: String, mode: UInt32)
    /// The file is not there or cannot be read.
    case unreadable(path: String, message: String)

    /// The path to act on.
    public var path: String {
        switch self {
        case .writableByOthers(let path, _), .unreadable(let path, _): path
        }
    }

    public var description: String {
        switch self {
        case .writableByOthers(let path, let mode):
            "\(path) holds a secret and others can write it (mode \(String(format: "%04o", mode))): refusing it; chmod 600 \(path)"
        case .unreadable(let path, let message): "cannot read \(path): \(message)"
        }
    }
}
