import Foundation

/// The executables `webauth` is made of, found from where the running one really is
/// (`/proc/self/exe`, symlinks resolved), so that any `PREFIX` works: beside it in a build
/// (`.build/debug/`), or in `PREFIX/lib/webauth/` for `PREFIX/bin/webauth` (scripts/install, the
/// Debian package's `/usr/lib/webauth/`).
package enum SiblingExecutable {
    /// The paths tried for the executable `name`, in order, for the running one at `executable`.
    package static func candidates(_ name: String, besides executable: String) -> [String] {
        let directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        return [directory.appendingPathComponent("../lib/webauth/" + name).standardizedFileURL.path, directory.appendingPathComponent(name).path]
    }

    /// This process becomes the executable `name` with `arguments` (its name first, as given) and
    /// `environment` (the process's own when `nil`); never returns. `standardInput`, what this
    /// process read of its stdin, is what the executable reads there instead, followed by nothing.
    /// When it cannot: `undo` (what was made for the executable), then `Error:` on stderr and exit 1
    /// (a local failure).
    package static func replaceProcess(_ name: String, arguments: [String], environment: [String: String]? = nil,
                                       standardInput: Data? = nil, undo: () -> Void = {}) -> Never {
        let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? arguments.first ?? name
        let tried = candidates(name, besides: running)
        guard let path = tried.first(where: { access($0, X_OK) == 0 }) else {
            undo()
            fail("\(name), which runs this command, is not installed (looked for \(tried.joined(separator: " and ")))",
                 advice: "Reinstall webauth (scripts/install, or the Debian package).")
        }
        if let standardInput, !giveBack(standardInput) {
            undo()
            fail("the command's input could not be handed to \(name): \(String(cString: strerror(errno)))", advice: "Run the command again.")
        }
        let argv = arguments.map { strdup($0) } + [nil]
        if let environment {
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            execve(path, argv, envp)
        } else {
            execv(path, argv)
        }
        undo()
        fail("\(path) cannot be run: \(String(cString: strerror(errno)))", advice: "Check that it is an executable file you may run.")
    }

    /// Makes `input` the process's stdin: a pipe that holds it whole, or for an input larger than a
    /// pipe holds (64 KiB), a pipe a child process of its own feeds (it ends once written, or when
    /// the reader leaves).
    private static func giveBack(_ input: Data) -> Bool {
        // Linux's pipe-size command (F_LINUX_SPECIFIC_BASE + 8), which Glibc's module does not show.
        let getPipeSize: Int32 = 1032
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        let (reader, writer) = (ends[0], ends[1])
        if input.count <= fcntl(writer, getPipeSize) {
            guard writeAll(input, to: writer) else { return false }
        } else {
            let feeder = fork()
            guard feeder >= 0 else { return false }
            if feeder == 0 {
                close(reader)
                _exit(writeAll(input, to: writer) ? 0 : 1)
            }
        }
        close(writer)
        guard dup2(reader, STDIN_FILENO) >= 0 else { return false }
        close(reader)
        return true
    }

    /// Writes all of `data` to `descriptor`, again after a signal.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// The command's one line for a failure, as every `webauth` command writes it, then exit 1.
    private static func fail(_ message: String, advice: String) -> Never {
        let line = "Error: \(message). \(advice)\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(1)
    }
}
