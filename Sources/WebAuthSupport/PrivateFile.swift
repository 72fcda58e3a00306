import Foundation

/// Files that describe a sign-in (failure reports, traces, screenshots) or hold a secret (the
/// virtual authenticator's credentials): created 0600 in folders
/// created 0700, and replaced atomically, so no other local user can read them and no reader
/// ever sees half a file. A folder that already exists keeps the mode its owner gave it.
package enum PrivateFile {
    /// Creates `directory` and any missing parents, each new one with mode 0700.
    package static func makeDirectory(_ directory: URL) throws(PrivateFileError) {
        var missing: [URL] = []
        var next = directory.standardizedFileURL
        while !FileManager.default.fileExists(atPath: next.path), next.path != "/" {
            missing.append(next)
            next = next.deletingLastPathComponent()
        }
        for folder in missing.reversed() where mkdir(folder.path, 0o700) != 0 && errno != EEXIST {
            throw PrivateFileError(path: folder.path, errno: errno)
        }
    }

    /// Writes `data` to `file` with mode 0600: into a new temporary file beside it, renamed over it.
    package static func write(_ data: Data, to file: URL) throws(PrivateFileError) {
        let path = file.standardizedFileURL.path
        let temporary = path + ".\(UUID().uuidString.prefix(8)).partial"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PrivateFileError(path: path, errno: errno) }
        var failure: Int32?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw PrivateFileError(path: path, errno: failure)
        }
    }
}

/// A private file or folder that could not be written.
package struct PrivateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or folder.
    package let path: String
    /// The system's reason.
    package let reason: String

    package init(path: String, errno code: Int32) {
        self.path = path
        self.reason = String(cString: strerror(code))
    }

    package var description: String { "\(path): \(reason)" }
}
