import Foundation

/// The exit of any process, not only a child of this one (a D-Bus-activated service, say):
/// Debian's Python opens a pidfd on it (`os.pidfd_open`) and waits until it is readable, which the
/// kernel makes it when the process exits. A wait on the event itself, no polling of /proc.
public enum ProcessExit {
    /// A watch of one process's exit, started before what should end it.
    public struct Watch: Sendable {
        private let watcher: ChildProcess

        /// Starts watching `pid`.
        public init(_ pid: pid_t) throws {
            watcher = try ChildProcess("/usr/bin/python3", ["-c", "import os, select, sys\ntry:\n    select.select([os.pidfd_open(int(sys.argv[1]))], [], [])\nexcept ProcessLookupError:\n    pass\n", "\(pid)"],
                                       environment: [:])
        }

        /// Returns once the process has exited (at once if it had already), or the waiting task is
        /// cancelled (a test's time limit): then the watch stops.
        public func exited() async {
            await withTaskCancellationHandler {
                _ = await watcher.exitStatus()
            } onCancel: {
                watcher.signal(SIGKILL)
            }
        }
    }
}
