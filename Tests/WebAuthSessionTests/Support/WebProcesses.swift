import Foundation

/// The WebKit web processes (and other helpers) this test process started, found in /proc by parent chain.
enum WebProcesses {
    /// Sends SIGKILL to every WebKitWebProcess descended from this process; returns how many.
    @discardableResult
    static func killAll() -> Int {
        let targets = descendants(named: "WebKitWebProces")
        for pid in targets { kill(pid, SIGKILL) }
        return targets.count
    }

    /// The processes descended from this one whose name (as /proc shows it, 15 characters) starts with `prefix`.
    static func descendants(named prefix: String) -> [pid_t] {
        let table = ProcessTable()
        return table.name.filter { $0.value.hasPrefix(prefix) && table.ancestors(of: $0.key).contains(getpid()) }.map(\.key)
    }

    /// The names of the processes between `pid` and this process (its parent first), or `nil`
    /// if `pid` does not descend from this process.
    static func ancestorNames(of pid: pid_t) -> [String]? {
        let table = ProcessTable()
        let ancestors = table.ancestors(of: pid)
        guard let me = ancestors.firstIndex(of: getpid()) else { return nil }
        return ancestors[..<me].map { table.name[$0] ?? "?" }
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
