import Foundation
import TestSupport

/// The WebKit web processes (and other helpers) this test process started, found in /proc by parent chain.
enum WebProcesses {
    /// Sends SIGKILL to every WebKitWebProcess this process's own engine started (directly, or
    /// through WebKit's bubblewrap sandbox); returns how many. The web processes of other
    /// programs this process runs (the `webauth` binary, exit-test children) are left alone:
    /// their tests run at the same time.
    @discardableResult
    static func killAll() -> Int {
        let targets = descendants(named: "WebKitWebProces")
        for pid in targets { kill(pid, SIGKILL) }
        return targets.count
    }

    /// The processes this one started, directly or through bubblewrap, whose name (as /proc shows
    /// it, 15 characters) starts with `prefix`: not those of another program it runs.
    static func descendants(named prefix: String) -> [pid_t] {
        lineage(named: prefix).filter { $0.ancestors.allSatisfy { $0 == "bwrap" } }.map(\.pid)
    }

    /// The same processes, each with the names of the processes between it and this one (its
    /// parent first), all read from one look at /proc.
    static func lineage(named prefix: String) -> [(pid: pid_t, ancestors: [String])] {
        let table = ProcessTable()
        return table.entries.compactMap { pid, entry in
            let ancestors = table.ancestors(of: pid)
            guard entry.name.hasPrefix(prefix), let me = ancestors.firstIndex(of: getpid()) else { return nil }
            return (pid, ancestors[..<me].map { table.entries[$0]?.name ?? "?" })
        }
    }
}
