import Foundation

/// Every process on this machine at one moment, read from /proc/PID/stat: its name (at most 15
/// characters, as /proc shows it), its state and its parent.
public struct ProcessTable: Sendable {
    /// One process.
    public struct Entry: Sendable {
        /// The name as /proc shows it.
        public let name: String
        /// The state letter (`Z` for a zombie: exited but not yet reaped).
        public let state: Character
        /// The parent's process ID.
        public let parent: pid_t?
    }

    /// The processes by ID.
    public let entries: [pid_t: Entry]

    /// Reads /proc now.
    public init() {
        var entries: [pid_t: Entry] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, let state = fields[0].first else { continue }
            entries[pid] = Entry(name: String(stat[stat.index(after: open)..<close]), state: state, parent: pid_t(fields[1]))
        }
        self.entries = entries
    }

    /// `pid`'s parent, its parent, and so on up to (not including) init.
    public func ancestors(of pid: pid_t) -> [pid_t] {
        var chain: [pid_t] = []
        var current = entries[pid]?.parent
        while let step = current, step > 1 {
            chain.append(step)
            current = entries[step]?.parent
        }
        return chain
    }
}
