import Foundation
import WebAuthSupport

/// An exclusive `flock` on a lock file that exists only while someone holds it: the holder
/// removes it as it lets go, so no `NAME.lock` is left behind for every name ever locked.
///
/// Removing a file others may be waiting on is safe only with the second half of the protocol:
/// a process that waited on the file before it was removed gets the lock on a file that is no
/// longer at the path, while a newcomer makes a new one there and takes its lock at once. So
/// whoever gets the lock checks, holding it, that the path still names the file it locked
/// (same device and inode), and otherwise lets go and starts again at the path.
struct LockFile {
    private let descriptor: Int32
    private let path: String

    /// Takes the lock on `path` (made 0600 when missing, never through a symbolic link). When
    /// another holds it, `whileWaiting` is called once, then the wait lasts at most `limit` in
    /// all (`nil`: as long as it takes) and ends early if the task is cancelled.
    /// - Throws: ``AuthStateStoreError/lockFileIsSymbolicLink(path:)``, ``AuthStateStoreError/io(path:message:)``,
    ///   ``AuthStateStoreError/lockWaitTimedOut(path:)``, or `CancellationError`.
    static func acquire(_ path: String, waitingAtMost limit: Duration?, whileWaiting: () -> Void) async throws -> LockFile {
        let deadline = limit.map { ContinuousClock.now + $0 }
        var told = false
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                if errno == ELOOP { throw AuthStateStoreError.lockFileIsSymbolicLink(path: path) }
                throw AuthStateStoreError.io(path: path, message: String(cString: strerror(errno)))
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK else {
                    let message = String(cString: strerror(errno))
                    close(descriptor)
                    throw AuthStateStoreError.io(path: path, message: message)
                }
                if !told { whileWaiting() }
                told = true
                switch await LockWait.wait(for: descriptor, atMost: deadline.map { max(.zero, $0 - ContinuousClock.now) }) {
                case .held: break
                case .failed(let code):
                    close(descriptor)
                    throw AuthStateStoreError.io(path: path, message: String(cString: strerror(code)))
                case .gaveUp:  // the waiting thread closes the descriptor when its flock returns
                    try Task.checkCancellation()
                    throw AuthStateStoreError.lockWaitTimedOut(path: path)
                }
            }
            if names(path, descriptor) { return LockFile(descriptor: descriptor, path: path) }
            close(descriptor)  // its holder removed it while this process waited: lock the one at the path now
        }
    }

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Lets go: removes the file (while still holding it, so that a waiter sees it gone), then closes it.
    func release() {
        if Self.names(path, descriptor) { unlink(path) }
        close(descriptor)
    }

    /// Whether `path` is the file open as `descriptor` (not a symbolic link, nor a newer file).
    private static func names(_ path: String, _ descriptor: Int32) -> Bool {
        var held = stat(), there = stat()
        return fstat(descriptor, &held) == 0 && lstat(path, &there) == 0 && held.st_dev == there.st_dev && held.st_ino == there.st_ino
    }
}
