import Foundation
import TestSupport

/// A short private `TMPDIR` for one `webauth` run, so that everything its engine makes lands in it
/// (the runtime folder, the scratch folder, the Xvfb's authority folder; each goes to /tmp when
/// `TMPDIR` is long) and every process it starts carries it in its environment: after the run,
/// both say whether it left anything behind, even a process that outlived it.
struct RunFolder {
    /// The folder's path.
    let path: String

    /// Makes the folder.
    init() throws {
        var template = Array("/tmp/wa-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = String(cString: made)
    }

    /// What a run adds to its environment: this `TMPDIR`, and no runtime folder of the machine's.
    var environment: [String: String] { ["TMPDIR": path, "XDG_RUNTIME_DIR": ""] }

    /// What is left in the folder.
    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }

    /// The live processes (zombies are not) whose environment or command line names the folder,
    /// as "name (pid)": the run's Xvfb, web or network processes, if any outlived it.
    var processesLeft: [String] {
        let marker = Data("TMPDIR=\(path)\0".utf8)
        return ProcessTable().entries.compactMap { pid, entry in
            guard entry.state != "Z", pid != getpid() else { return nil }
            let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            guard environment.range(of: marker) != nil || command.range(of: Data(path.utf8)) != nil else { return nil }
            return "\(entry.name) (\(pid))"
        }
    }

    /// Removes the folder.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
