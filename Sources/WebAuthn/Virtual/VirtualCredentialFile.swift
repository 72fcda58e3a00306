import Foundation
import OpenIDConnect
import WebAuthSupport

/// The virtual authenticator's credentials on disk: a JSON file of mode 0600,
/// `{"version": 1, "credentials": [...]}`, replaced atomically. Each change happens under an
/// advisory lock (`PATH.lock`), reading the file again first, so sessions side by side (a batch)
/// keep each other's registrations and counters. A file others can read, or one that is not a
/// credentials file, is refused with ``VirtualCredentialFileError``, never rewritten.
struct VirtualCredentialFile: Sendable {
    /// The file.
    let path: String

    private struct Contents: Codable {
        var version = 1
        var credentials: [VirtualCredential] = []
    }

    /// The credentials in the file; none when it does not exist yet.
    /// - Throws: ``VirtualCredentialFileError``.
    func read() throws(VirtualCredentialFileError) -> [VirtualCredential] {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return [] }
            throw .unusable(path: path, reason: String(cString: strerror(errno)))
        }
        let mode = UInt32(status.st_mode) & 0o7777
        guard mode & 0o077 == 0 else { throw .readableByOthers(path: path, mode: mode) }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw .unusable(path: path, reason: error.localizedDescription) }
        let contents: Contents
        do { contents = try JSONDecoder().decode(Contents.self, from: data) } catch let error as DecodingError {
            throw .damaged(path: path, reason: DecodingProblem(error).description)
        } catch {
            throw .damaged(path: path, reason: "not JSON")
        }
        guard contents.version == 1 else { throw .damaged(path: path, reason: "version \(contents.version), not 1") }
        return contents.credentials
    }

    /// Reads the credentials, lets `change` change them, and writes them back, all under the file's lock.
    /// - Throws: ``VirtualCredentialFileError``, or what `change` throws (the file is then left as it was).
    func update<Result>(_ change: (inout [VirtualCredential]) throws(AuthenticatorError) -> Result) throws(AuthenticatorError) -> Result {
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw .credentialsFile(.unusable(path: path, reason: String(cString: strerror(errno)))) }
        defer { close(lock) }  // closing releases the lock
        while flock(lock, LOCK_EX) != 0, errno == EINTR {}
        var credentials: [VirtualCredential]
        do { credentials = try read() } catch { throw .credentialsFile(error) }
        let before = credentials
        let result = try change(&credentials)
        guard credentials != before else { return result }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try PrivateFile.write(try encoder.encode(Contents(credentials: credentials)), to: URL(fileURLWithPath: path))
        } catch {
            throw .credentialsFile(.unusable(path: path, reason: "\(error)"))
        }
        return result
    }
}
