import CTestProcesses
import Foundation

/// The suite's check that it leaves no process behind: every program a test starts
/// through ``ChildProcess`` gets `WEBAUTH_TEST_RUN=<this process's pid>` in its environment, and
/// so does everything that program starts in turn (a `webauth` child's Xvfb and web processes, a
/// bus's activated broker), unless it clears its environment. When the test process exits, after
/// every test whatever order they ran in (the last exit handler: `CTestProcesses`), each such
/// process still alive is named on stderr and killed, and the run fails with exit status 1.
///
/// The engine the tests run in this process starts its own Xvfb and web processes without the
/// variable: they are this process's, and go with it (its exit teardown). A program that ends by
/// itself when this process ends is started with `outlivesTests` (``ChildProcess``) and not counted.
public enum LeftoverProcesses {
    /// The variable.
    public static let variable = "WEBAUTH_TEST_RUN"

    /// Its value for this test process; arms the check on first use.
    static let marker: String = {
        ctp_set_last_exit_check { LeftoverProcesses.checkAtExit() }
        return "\(getpid())"
    }()

    /// The live processes (not zombies) that carry this test process's marker, each as
    /// "name (pid): command line".
    public static var running: [String] { leftovers().map(\.description) }

    private static func leftovers() -> [(pid: pid_t, description: String)] {
        let entry = Data("\(variable)=\(marker)\0".utf8)
        return ProcessTable().entries.compactMap { pid, process in
            guard process.state != "Z", pid != getpid(),
                  FileManager.default.contents(atPath: "/proc/\(pid)/environ")?.range(of: entry) != nil else { return nil }
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self) } ?? ""
            return (pid, "\(process.name) (\(pid)): \(command.replacingOccurrences(of: "\0", with: " ").prefix(200))")
        }.sorted { $0.pid < $1.pid }
    }

    private static func checkAtExit() {
        let left = leftovers()
        guard !left.isEmpty else { return }
        // write(2): Foundation's handles may be gone this late in the exit.
        let report = Array("""
            error: the tests left \(left.count) process(es) running (killed now):
            \(left.map { "  " + $0.description }.joined(separator: "\n"))

            """.utf8)
        _ = report.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        for process in left { kill(process.pid, SIGKILL) }
        _exit(1)
    }
}
