/// Why the virtual authenticator's credentials file cannot be used. Each names the file.
public enum VirtualCredentialFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Group or others may read or write it: its private keys sign in as its accounts.
    case readableByOthers(path: String, mode: UInt32)
    /// It is not a credentials file this version wrote (not JSON, a missing member, a key that is not one).
    case damaged(path: String, reason: String)
    /// It cannot be opened, read or written.
    case unusable(path: String, reason: String)

    /// The file.
    public var path: String {
        switch self {
        case .readableByOthers(let path, _), .damaged(let path, _), .unusable(let path, _): path
        }
    }

    public var description: String {
        switch self {
        case .readableByOthers(let path, let mode):
            "the passkey credentials file \(path) holds private keys and others can read it (mode \(String(format: "%04o", mode))): "
                + "refusing it; chmod 600 \(path)"
        case .damaged(let path, let reason): "the passkey credentials file \(path) is damaged: \(reason)"
        case .unusable(let path, let reason): "the passkey credentials file \(path) cannot be used: \(reason)"
        }
    }
}
