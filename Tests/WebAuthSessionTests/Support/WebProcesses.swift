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
        let me = getpid()
        var parent: [pid_t: pid_t] = [:]
        var name: [pid_t: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            name[pid] = String(stat[stat.index(after: open)..<close])
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            parent[pid] = fields.count > 1 ? pid_t(fields[1]) : nil
        }
        func descends(_ pid: pid_t) -> Bool {
            var current = parent[pid]
            while let step = current, step > 1 {
                if step == me { return true }
                current = parent[step]
            }
            return false
        }
        return name.filter { $0.value.hasPrefix(prefix) && descends($0.key) }.map(\.key)
    }
}
