import Foundation

/// This process and its descendants, read from /proc: for the soak run's checkpoints.
struct ProcessTree {
    /// Resident memory of this process and every descendant, in MiB.
    let residentMiB: Double
    /// Proportional set size (shared pages divided among their sharers) of the same processes, in MiB.
    let proportionalMiB: Double
    /// Open file descriptors of this process, and of the whole tree.
    let fileDescriptors: Int
    let treeFileDescriptors: Int
    /// Threads of this process.
    let threads: Int
    /// Threads of this process named `ReceiveQueue`: WebKit's IPC receive threads, the ones its
    /// compositing leak leaves behind (bench/NOTES.md).
    let receiveQueueThreads: Int
    /// Live WebKit web processes and Xvfb servers below this process.
    let webProcesses: Int
    let xvfbServers: Int

    /// Reads the tree now.
    static func now() -> ProcessTree {
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
        func inTree(_ pid: pid_t) -> Bool {
            var current: pid_t? = pid
            while let step = current, step > 1 {
                if step == me { return true }
                current = parent[step]
            }
            return false
        }
        let tree = name.keys.filter(inTree)
        func kibibytes(_ field: String, in file: String) -> Int {
            tree.reduce(0) { total, pid in
                let text = (try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8)) ?? ""
                let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
                return total + (line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0)
            }
        }
        func descriptors(_ pid: pid_t) -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0 }
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let receiveQueues = threads.count {
            (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8))?.hasPrefix("ReceiveQueue") == true
        }
        return ProcessTree(residentMiB: Double(kibibytes("VmRSS", in: "status")) / 1024, proportionalMiB: Double(kibibytes("Pss", in: "smaps_rollup")) / 1024,
                           fileDescriptors: descriptors(me), treeFileDescriptors: tree.reduce(0) { $0 + descriptors($1) },
                           threads: threads.count, receiveQueueThreads: receiveQueues,
                           webProcesses: tree.count { name[$0]?.hasPrefix("WebKitWebProces") == true },
                           xvfbServers: tree.count { name[$0] == "Xvfb" })
    }
}
