#if canImport(Glibc)
import Glibc
#endif

/// The executables `webauth` is made of, found from where the running one really is
/// (`/proc/self/exe`, symlinks resolved), so that any `PREFIX` works: beside it in a build
/// (`.build/debug/`), or in `PREFIX/lib/webauth/` for `PREFIX/bin/webauth` (scripts/install, the
/// Debian package's `/usr/lib/webauth/`).
package enum SiblingExecutable {
    /// The paths tried for the executable `name`, in order, for the running one at `executable`.
    package static func candidates(_ name: String, besides executable: String) -> [String] {
        let directory = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
        return [standardized(directory + "/../lib/webauth/" + name), directory + "/" + name]
    }

    /// This process becomes the executable `name` with `arguments` (its name first, as given) and
    /// `environment` (the process's own when `nil`); never returns. When it cannot: `Error:` on
    /// stderr and exit 1 (a local failure).
    package static func replaceProcess(_ name: String, arguments: [String], environment: [String: String]? = nil) -> Never {
        let tried = candidates(name, besides: runningExecutable() ?? arguments.first ?? name)
        guard let path = tried.first(where: { access($0, X_OK) == 0 }) else {
            fail("\(name), which runs this command, is not installed (looked for \(tried.joined(separator: " and ")))",
                 advice: "Reinstall webauth (scripts/install, or the Debian package).")
        }
        let argv = arguments.map { strdup($0) } + [nil]
        if let environment {
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            execve(path, argv, envp)
        } else {
            execv(path, argv)
        }
        fail("\(path) cannot be run: \(String(cString: strerror(errno)))", advice: "Check that it is an executable file you may run.")
    }

    /// The running executable's real path.
    private static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with its `.` and `..` components resolved lexically (as `URL.standardized` does).
    private static func standardized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }

    /// The command's one line for a failure, as every `webauth` command writes it, then exit 1.
    private static func fail(_ message: String, advice: String) -> Never {
        let line = "Error: \(message). \(advice)\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(1)
    }
}
