import Foundation
import WebAuthSupport

/// The one reader of files that hold secrets: a client secret, a `private_key_jwt` key, a
/// client certificate's key, a login script's `file:` value, a TOTP seed. It checks the file's
/// permissions as ssh checks a private key's:
///
/// - a file that anyone but its owner can **write** (group or others) is refused
///   (``SecretFileError/writableByOthers(path:mode:)``): whoever can write it chooses the secret,
///   a key or a seed this client would then use as its own;
/// - a file that group or others can **read** is read, with a ``SecretFileWarning`` that gives
///   the command to fix it (`chmod 600 PATH`);
/// - a file on a read-only mount gets neither: Kubernetes and Docker mount their secrets
///   read-only, as mode 0644 or 0444, and the mode of such a file cannot be fixed by its reader.
///
/// The permissions are those of the file a symbolic link leads to (a Kubernetes secret is a link
/// into `..data/`). A warning is handed out once per file per process, so a file read for every
/// request warns once: show or log it when you get one.
public enum SecretFile {
    /// A secret file's text (as it is, newline and all) and the warning for it, if any.
    public struct Contents: Sendable, Hashable {
        /// The file's text.
        public let text: String
        /// The warning for its permissions, the first time this process reads it.
        public let warning: SecretFileWarning?
    }

    /// Reads the secret file at `path`.
    /// - Throws: ``SecretFileError/writableByOthers(path:mode:)``, ``SecretFileError/unreadable(path:message:)``.
    public static func read(_ path: String) throws(SecretFileError) -> Contents {
        try read(path, isOnReadOnlyMount: isOnReadOnlyMount)
    }

    /// Checks the file at `path` without reading it (for a file a library reads itself, such as
    /// a certificate's key that GnuTLS loads).
    /// - Returns: the warning for its permissions, the first time this process checks or reads it.
    /// - Throws: ``SecretFileError/writableByOthers(path:mode:)``, ``SecretFileError/unreadable(path:message:)``
    ///   when it cannot be found.
    public static func check(_ path: String) throws(SecretFileError) -> SecretFileWarning? {
        try check(path, isOnReadOnlyMount: isOnReadOnlyMount)
    }

    /// ``read(_:)`` with the read-only-mount check given (for tests that cannot mount).
    package static func read(_ path: String, isOnReadOnlyMount: (String) -> Bool) throws(SecretFileError) -> Contents {
        let warning = try check(path, isOnReadOnlyMount: isOnReadOnlyMount)
        do { return Contents(text: try String(contentsOfFile: path, encoding: .utf8), warning: warning) } catch {
            throw .unreadable(path: path, message: error.localizedDescription)
        }
    }

    /// ``check(_:)`` with the read-only-mount check given.
    package static func check(_ path: String, isOnReadOnlyMount: (String) -> Bool) throws(SecretFileError) -> SecretFileWarning? {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadable(path: path, message: String(cString: strerror(errno))) }
        let mode = UInt32(status.st_mode) & 0o7777
        guard mode & 0o077 != 0, !isOnReadOnlyMount(path) else { return nil }
        if mode & 0o022 != 0 { throw .writableByOthers(path: path, mode: mode) }
        let first = warned.withLock { $0.insert(path).inserted }
        return first ? SecretFileWarning(path: path, mode: mode) : nil
    }

    /// Whether `path` is on a file system mounted read-only (`statvfs`'s `ST_RDONLY`).
    package static func isOnReadOnlyMount(_ path: String) -> Bool {
        var status = statvfs()
        return statvfs(path, &status) == 0 && status.f_flag & UInt(ST_RDONLY) != 0
    }

    /// The files this process has warned of.
    private static let warned = LockedState<Set<String>>([])
}
