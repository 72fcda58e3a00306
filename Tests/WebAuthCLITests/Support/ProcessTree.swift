import Foundation
import TestSupport

/// The processes running on this machine, by parent, read from /proc.
enum ProcessTree {
    /// The live processes started by `ancestor`, directly or further down (through WebKit's
    /// bubblewrap, say), each with its name (as /proc shows it, at most 15 characters).
    static func descendants(of ancestor: pid_t) -> [pid_t: String] {
        let table = ProcessTable()
        return table.entries.filter { pid, _ in table.ancestors(of: pid).contains(ancestor) }.mapValues(\.name)
    }

    /// The environment of each live process `ancestor` started (directly or further down), by its
    /// name and pid, as /proc holds it (one that ended meanwhile is left out).
    static func environments(under ancestor: pid_t) -> [(process: String, environment: String)] {
        descendants(of: ancestor).compactMap { pid, name in
            FileManager.default.contents(atPath: "/proc/\(pid)/environ").map { ("\(name) (\(pid))", String(decoding: $0, as: UTF8.self)) }
        }
    }

    /// Whether `pid` still runs under `name` (a zombie, exited but not yet reaped, does not count).
    static func isRunning(_ pid: pid_t, name: String) -> Bool {
        guard let entry = ProcessTable().entries[pid] else { return false }
        return entry.name == name && entry.state != "Z"
    }
}
