import Foundation
import TestSupport
import Testing

/// The suite's last check (``LeftoverProcesses``): a process a test started and left running is
/// named on stderr and killed when the test process exits, and the run fails. Shown in a child test
/// process (an exit test), which is a test run of its own. The child's stderr is not observed
/// here: Swift Testing stops collecting it before the exit handlers run (seen: empty), so the
/// naming is checked in a run of its own (a test leaving `sleep` gave "error: the tests left 1
/// process(es) running (killed now): sleep (PID): /bin/sleep 601" and exit status 1).
@Suite("Leftover processes")
struct LeftoverProcessTests {
    /// A `sleep` no other program on this machine runs.
    static let leftover = ["/bin/sleep", "6042.25"]

    @Test("a program a test started and never stopped is killed, and fails the run, when the tests end")
    func leftoverKilled() async throws {
        await #expect(processExitsWith: .exitCode(1)) {
            _ = try ChildProcess(LeftoverProcessTests.leftover[0], [LeftoverProcessTests.leftover[1]], environment: [:])
        }
        let command = Data((Self.leftover.joined(separator: "\0") + "\0").utf8)
        let alive = ProcessTable().entries.filter { pid, entry in
            entry.state != "Z" && FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") == command
        }
        #expect(alive.isEmpty, "killed: \(alive.keys)")
    }

    @Test("a program that ends by itself when the tests end is not counted")
    func outlivingAllowed() async throws {
        await #expect(processExitsWith: .success) {
            // It waits for its parent, the test process, to exit (a pidfd), as LemonLDAP's portal does.
            let script = "import os, select, sys\ntry:\n    select.select([os.pidfd_open(int(sys.argv[1]))], [], [])\nexcept ProcessLookupError:\n    pass\n"
            _ = try ChildProcess("/usr/bin/python3", ["-c", script, "\(getpid())"], environment: [:], outlivesTests: true)
        }
    }
}
