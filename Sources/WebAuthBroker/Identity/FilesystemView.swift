import Foundation

/// Whether a process sees the files the broker sees: the same root directory and the same mount
/// namespace, compared by device and inode of `/proc/PID/root` and `/proc/PID/ns/mnt` against the
/// broker's own (`readlink` says `/` and `mnt:[N]` whatever the namespace, so it cannot tell).
/// Only then does a path in `/proc/PID/exe` or `cmdline` name a file the broker can vouch for;
/// in another view (bubblewrap, a container, a chroot, a systemd unit's private mounts) the
/// process chose what that path holds.
enum FilesystemView {
    /// `true` when process `process` (a `/proc/PID` folder) shares the view of `reference`
    /// (`/proc/self`, the broker).
    /// - Throws: ``CallerIdentityError/unreadable(_:)`` when either cannot be read.
    static func isShared(by process: String, with reference: String) throws(CallerIdentityError) -> Bool {
        for entry in ["root", "ns/mnt"] {
            let theirs = try identity(of: "\(process)/\(entry)")
            let ours = try identity(of: "\(reference)/\(entry)")
            if theirs != ours { return false }
        }
        return true
    }

    /// The device and inode of what `path` leads to.
    private static func identity(of path: String) throws(CallerIdentityError) -> [UInt64] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .unreadable("\(path): \(String(cString: strerror(errno)))")
        }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
