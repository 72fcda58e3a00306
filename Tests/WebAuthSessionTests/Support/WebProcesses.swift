import Foundation

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
        return table.name.compactMap { pid, name in
            let ancestors = table.ancestors(of: pid)
            guard name.hasPrefix(prefix), let me = ancestors.firstIndex(of: getpid()) else { return nil }
            return (pid, ancestors[..<me].map { table.name[$0] ?? "?" })
        }
    }

    /// Every process's name and parent, read from /proc/PID/stat.
    private struct ProcessTable {
        var parent: [pid_t: pid_t] = [:]
        var name: [pid_t: String] = [:]

        init() {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
                name[pid] = String(stat[stat.index(after: open)..<close])
                let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
                parent[pid] = fields.count > 1 ? pid_t(fields[1]) : nil
            }
        }

        /// `pid`'s parent, its parent, and so on up to (not including) init.
        func ancestors(of pid: pid_t) -> [pid_t] {
            var chain: [pid_t] = []
            var current = parent[pid]
            while let step = current, step > 1 {
                chain.append(step)
                current = parent[step]
            }
            return chain
        }
    }
}
