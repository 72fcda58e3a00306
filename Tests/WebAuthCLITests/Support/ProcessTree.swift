import Foundation

/// The processes running on this machine, by parent, read from /proc.
enum ProcessTree {
    /// The live processes started by `ancestor`, directly or further down (through WebKit's
    /// bubblewrap, say), each with its name (as /proc shows it, at most 15 characters).
    static func descendants(of ancestor: pid_t) -> [pid_t: String] {
        let table = table()
        return table.filter { pid, _ in
            var current = table[pid]?.parent
            while let step = current, step > 1 {
                if step == ancestor { return true }
                current = table[step]?.parent
            }
            return false
        }.mapValues(\.name)
    }

    /// Whether `pid` still runs under `name` (a zombie, exited but not yet reaped, does not count).
    static func isRunning(_ pid: pid_t, name: String) -> Bool {
        guard let entry = table()[pid] else { return false }
        return entry.name == name && entry.state != "Z"
    }

    /// Every process's name, state and parent, from /proc/PID/stat.
    private static func table() -> [pid_t: (name: String, state: Character, parent: pid_t?)] {
        var table: [pid_t: (name: String, state: Character, parent: pid_t?)] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, let state = fields[0].first else { continue }
            table[pid] = (String(stat[stat.index(after: open)..<close]), state, pid_t(fields[1]))
        }
        return table
    }
}
