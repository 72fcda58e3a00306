import Foundation
import WebAuthSupport

/// Saves an ``AuthState`` in a file: `$XDG_STATE_HOME/webauthsession/NAME.json` (or
/// `~/.local/state/…`), the directory mode 0700, the file 0600, written to a temporary file in
/// the same directory, synced, then renamed over the old one, so a reader sees the old state or
/// the new one, never half of either. A file that is not a saved state of this library (corrupt,
/// or someone else's) is an error, and is never overwritten. Processes sharing the file take turns
/// refreshing through an advisory lock on `NAME.lock` beside it (``SharedAuthStateStore``), a file
/// that exists only while a process holds it.
///
/// The folder must belong to the current user and be writable by nobody else (as `chmod 700`
/// makes it): otherwise someone else could replace the saved state or plant the lock file, so
/// the store refuses it. A `NAME.lock` that is a symbolic link is refused, never followed.
public struct FileAuthStateStore: SharedAuthStateStore {
    /// The file.
    public let fileURL: URL


    /// A store in `directory`, or in the XDG state directory taken from `environment`.
    /// - Throws: ``AuthStateStoreError/invalidName(_:)`` for a name that is empty or has a `/`.
    public init(name: String, directory: URL? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(AuthStateStoreError) {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { throw .invalidName(name) }
        let base = directory ?? Self.stateDirectory(environment)
        fileURL = base.appendingPathComponent(name + ".json")
    }

    static func stateDirectory(_ environment: [String: String]) -> URL {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("webauthsession")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/webauthsession")
    }

    /// The saved state, or `nil` when there is none.
    /// - Throws: ``AuthStateStoreError/corrupt(path:reason:)``, ``AuthStateStoreError/foreignFile(path:)``,
    ///   ``AuthStateStoreError/io(path:message:)``, ``AuthStateStoreError/directoryNotOwned(path:owner:)`` or
    ///   ``AuthStateStoreError/directoryWritableByOthers(path:mode:)`` for an unsafe folder.
    public func load() throws(AuthStateStoreError) -> AuthState? {
        try Self.checkDirectory(fileURL.deletingLastPathComponent().path)
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw .io(path: fileURL.path, message: error.localizedDescription)
        }
        return try AuthStateArchive.decode(data, location: fileURL.path)
    }

    /// Saves `state`, replacing the previous one atomically.
    /// - Throws: ``AuthStateStoreError``; the previous file stays as it was.
    public func save(_ state: AuthState) throws(AuthStateStoreError) {
        if FileManager.default.fileExists(atPath: fileURL.path) { _ = try load() }  // refuses to overwrite what is not ours
        let encoded = try AuthStateArchive.encode(state, location: fileURL.path)
        try checkWritable()
        try writeAtomically(encoded, directory: fileURL.deletingLastPathComponent().path)
    }

    /// Holds `flock(LOCK_EX)` on `NAME.lock` while `body` runs, and removes the file as it lets go
    /// (waiters then lock the file at the path anew). A wait for the lock happens on a thread of
    /// its own, never on one of Swift's cooperative threads.
    /// - Throws: ``AuthStateStoreError/io(path:message:)`` when the lock file cannot be opened or the
    ///   directory cannot be written (checked before `body`, so a refresh token is not spent on
    ///   tokens that could not be saved), ``AuthStateStoreError/lockFileIsSymbolicLink(path:)``,
    ///   ``AuthStateStoreError/directoryNotOwned(path:owner:)``,
    ///   ``AuthStateStoreError/directoryWritableByOthers(path:mode:)``, or `body`'s error.
    public func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await withExclusiveLock(waitingAtMost: nil, whileWaiting: {}, body)
    }

    /// ``withExclusiveLock(_:)``, saying when it has to wait and waiting only so long: when another
    /// process holds the lock, `whileWaiting` is called once, then the wait lasts at most `limit`
    /// (`nil`: as long as it takes) and ends early if the task is cancelled.
    /// - Throws: what ``withExclusiveLock(_:)`` throws, ``AuthStateStoreError/lockWaitTimedOut(path:)``
    ///   when `limit` passed first, `CancellationError` when the task was cancelled first.
    public func withExclusiveLock<T: Sendable>(waitingAtMost limit: Duration?, whileWaiting: () -> Void,
                                               _ body: @Sendable () async throws -> T) async throws -> T {
        let lockPath = fileURL.deletingPathExtension().path + ".lock"
        try checkWritable()
        let lock = try await LockFile.acquire(lockPath, waitingAtMost: limit, whileWaiting: whileWaiting)
        defer { lock.release() }
        let directory = fileURL.deletingLastPathComponent().path
        guard access(directory, W_OK) == 0 else { throw AuthStateStoreError.io(path: directory, message: String(cString: strerror(errno))) }
        return try await body()
    }

    /// Checks that a state can be saved here: the folder exists (it is made 0700 if not), belongs
    /// to this user, nobody else may write to it, and it can be written.
    /// - Throws: ``AuthStateStoreError/io(path:message:)``, ``AuthStateStoreError/directoryNotOwned(path:owner:)``,
    ///   ``AuthStateStoreError/directoryWritableByOthers(path:mode:)``.
    public func checkWritable() throws(AuthStateStoreError) {
        let directory = fileURL.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .io(path: directory, message: error.localizedDescription)
        }
        try Self.checkDirectory(directory)
        guard access(directory, W_OK) == 0 else { throw .io(path: directory, message: String(cString: strerror(errno))) }
    }

    /// The names of the states saved in `directory`, or in the XDG state directory taken from
    /// `environment`, sorted; none when the folder does not exist.
    /// - Throws: ``AuthStateStoreError/io(path:message:)`` when the folder cannot be read, and the
    ///   folder errors of ``load()``.
    public static func savedNames(directory: URL? = nil,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) throws(AuthStateStoreError) -> [String] {
        let base = (directory ?? stateDirectory(environment)).path
        try checkDirectory(base)
        let entries: [String]
        do { entries = try FileManager.default.contentsOfDirectory(atPath: base) } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return []
        } catch {
            throw .io(path: base, message: error.localizedDescription)
        }
        return entries.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(".json".count)) }.sorted()
    }

    /// Deletes the saved state (signing out). No file is not an error.
    public func remove() throws(AuthStateStoreError) {
        guard unlink(fileURL.path) == 0 || errno == ENOENT else { throw .io(path: fileURL.path, message: String(cString: strerror(errno))) }
    }

    /// Refuses `directory` when it belongs to another user or group or others may write to it;
    /// a folder that does not exist yet passes (the store creates it 0700).
    /// - Throws: ``AuthStateStoreError/directoryNotOwned(path:owner:)``,
    ///   ``AuthStateStoreError/directoryWritableByOthers(path:mode:)``, ``AuthStateStoreError/io(path:message:)``.
    private static func checkDirectory(_ directory: String) throws(AuthStateStoreError) {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            if errno == ENOENT { return }
            throw .io(path: directory, message: String(cString: strerror(errno)))
        }
        guard info.st_uid == geteuid() else { throw .directoryNotOwned(path: directory, owner: info.st_uid) }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw .directoryWritableByOthers(path: directory, mode: info.st_mode & 0o7777)
        }
    }

    private func writeAtomically(_ data: Data, directory: String) throws(AuthStateStoreError) {
        var template = Array((directory + "/." + fileURL.lastPathComponent + ".XXXXXX").utf8CString)
        let fd = mkstemp(&template)  // created 0600
        guard fd >= 0 else { throw .io(path: directory, message: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String?
        let written = data.withUnsafeBytes { buffer -> Int in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count <= 0 { return -1 }
                offset += count
            }
            return offset
        }
        if written != data.count || fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary, fileURL.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw .io(path: fileURL.path, message: failure)
        }
    }
}

/// Why a saved auth state could not be read or written.
public enum AuthStateStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store name is empty or contains `/`.
    case invalidName(String)
    /// The file is ours but unreadable (damaged). It is left as it is; removing it (signing out) is the fix.
    case corrupt(path: String, reason: String)
    /// The file was written by a newer version of this library, in a format this one does not
    /// know. It is left as it is: use the newer version, or remove it (sign out) and sign in again.
    case newerVersion(path: String, version: Int)
    /// The file is not a saved state of this library. It is left as it is.
    case foreignFile(path: String)
    /// Reading or writing failed (permissions, a full disk...). The previous state is intact.
    case io(path: String, message: String)
    /// The store's folder belongs to another user (`owner` is their uid), who could replace the
    /// saved state: use a folder of your own.
    case directoryNotOwned(path: String, owner: UInt32)
    /// Group or others may write in the store's folder (`mode` is its permission bits), so they
    /// could replace the saved state: `chmod 700` it.
    case directoryWritableByOthers(path: String, mode: UInt32)
    /// The lock file is a symbolic link (planted to make the store write elsewhere): refused, not followed.
    case lockFileIsSymbolicLink(path: String)
    /// Another process held the lock longer than the wait allowed (another sign-in of the same name).
    case lockWaitTimedOut(path: String)

    public var description: String {
        switch self {
        case .invalidName(let name): "'\(name)' cannot name a store"
        case .corrupt(let path, let reason): "\(path) is damaged (\(reason)); it was left untouched: remove it to sign in again"
        case .newerVersion(let path, let version):
            "\(path) was saved by a newer version (format \(version); this one reads up to \(AuthState.currentVersion)); "
                + "it was left untouched: use the newer version, or remove it to sign in again"
        case .foreignFile(let path): "\(path) is not a WebAuthSession state file; it was left untouched"
        case .io(let path, let message): "\(path): \(message)"
        case .directoryNotOwned(let path, let owner):
            "the folder \(path) belongs to uid \(owner), not to this user, and its owner could replace the saved sign-in: use a folder of your own"
        case .directoryWritableByOthers(let path, let mode):
            "the folder \(path) can be written by group or others (mode 0\(String(mode, radix: 8))): run chmod 700 \(path)"
        case .lockFileIsSymbolicLink(let path): "\(path) is a symbolic link, refused rather than followed: remove it"
        case .lockWaitTimedOut(let path): "another process still holds \(path) (another sign-in under the same name): try again when it has finished"
        }
    }
}
