import Foundation

/// The exit of any process, not only a child of this one (a D-Bus-activated service, say):
/// Debian's Python opens a pidfd on it (`os.pidfd_open`) and waits until it is readable, which the
/// kernel makes it when the process exits. A wait on the event itself, no polling of /proc.
public enum ProcessExit {
    /// Starts watching `pid`; the task ends once it has exited (at once if it has already).
    public static func watch(_ pid: pid_t) throws -> Task<Void, Never> {
        let watcher = try ChildProcess("/usr/bin/python3", ["-c", "import os, select, sys\ntry:\n    select.select([os.pidfd_open(int(sys.argv[1]))], [], [])\nexcept ProcessLookupError:\n    pass\n", "\(pid)"],
                                       environment: [:])
        return Task { _ = await watcher.exitStatus() }
    }
}
