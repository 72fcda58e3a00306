/// Why a file of `Document` (a login script, a batch file) could not be used.
public enum YAMLFileError<Document: YAMLDocument>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, message: String)
    /// The file is not a valid document; `message` says what is wrong, and where.
    case invalid(path: String, message: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let message): "cannot read the \(Document.fileKind) \(path): \(message)"
        case .invalid(let path, let message): "the \(Document.fileKind) \(path) is not valid: \(message)"
        }
    }
}
