import Foundation

/// WebKit's processes that this process started: its network and web processes, directly or
/// inside their bubblewrap sandbox, and the sandbox's D-Bus proxies. They end by themselves
/// once this process has gone, but not at once, and until then they use the display and the
/// scratch directory: a web process that is still starting when the private Xvfb stops says so
/// on this process's stderr ("cannot open display"), and Mesa in a web process recreates its
/// shader cache in a scratch directory just removed. The exit teardown ends them first.
enum WebKitChildProcesses {
    /// Kills (SIGKILL) this process's children that run WebKit's programs or the sandbox's D-Bus
    /// proxy, and everything under them (a sandbox's own processes, in their PID namespace), and
    /// returns once each has exited, or after two seconds. They are not reaped: whoever spawned
    /// them (GLib) still may; an exited process uses nothing.
    ///
    /// Each exit is awaited on a process file descriptor, not by reading `/proc/PID/stat`: a
    /// reader of that file holds the dying process's memory for a moment, and when the process
    /// lets go of it first, the reader is the one that frees it all (tens of milliseconds for a
    /// WebKit process here, seen as a 73 ms exit). Waiting on the descriptor, the dying processes
    /// free their own memory, side by side.
    static func endAll() {
        let parents = parentsByProcess()
        let me = getpid()
        var doomed = parents.keys.filter { pid in
            guard parents[pid] == me else { return false }
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            return command.range(of: Data("webkit2gtk-4.1/WebKit".utf8)) != nil || command.range(of: Data("xdg-dbus-proxy".utf8)) != nil
        }
        var next = 0
        while next < doomed.count {
            let parent = doomed[next]
            doomed += parents.filter { $0.value == parent }.map(\.key)
            next += 1
        }
        // Opened before the kill, so that each names the process it was opened for, not a
        // successor that took its number.
        let exits = doomed.compactMap(ProcessExitDescriptor.init)
        for pid in doomed { kill(pid, SIGKILL) }
        ProcessExitDescriptor.awaitAll(exits, milliseconds: 2000)
    }

    /// Every process's parent, from /proc (this kernel has no `/proc/PID/task/TID/children`).
    private static func parentsByProcess() -> [pid_t: pid_t] {
        var parents: [pid_t: pid_t] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let fields = statFields(pid), fields.count > 1, let parent = pid_t(fields[1]) else { continue }
            parents[pid] = parent
        }
        return parents
    }

    /// The fields of /proc/PID/stat after the command name: the state, the parent, ….
    private static func statFields(_ pid: pid_t) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
    }
}
