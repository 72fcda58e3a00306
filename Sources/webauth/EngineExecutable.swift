import Foundation
import WebAuthCommandLine

/// `webauth-engine`, the whole command tree with WebKitGTK, found from where this executable
/// really is (`/proc/self/exe`, symlinks resolved), so that any `PREFIX` works: beside it in a
/// build (`.build/debug/`), or `PREFIX/lib/webauth/webauth-engine` for `PREFIX/bin/webauth`
/// (scripts/install, the Debian package's `/usr/lib/webauth/`).
enum EngineExecutable {
    /// The paths tried, in order, for the executable at `executable`.
    static func candidates(besides executable: String) -> [String] {
        let directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        return [directory.appendingPathComponent("../lib/webauth/webauth-engine").standardizedFileURL.path,
                directory.appendingPathComponent("webauth-engine").path]
    }

    /// This process becomes `webauth-engine` with `arguments` (its name first, as given) and
    /// `environment` (the process's own when `nil`); never returns. When it cannot: `Error:` on
    /// stderr and exit 1 (a local failure).
    static func replaceProcess(_ arguments: [String], environment: [String: String]? = nil) -> Never {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let tried = candidates(besides: executable)
        guard let engine = tried.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            fail("webauth-engine, which runs this command, is not installed (looked for \(tried.joined(separator: " and ")))",
                 advice: "Reinstall webauth (scripts/install, or the Debian package).")
        }
        let argv = arguments.map { strdup($0) } + [nil]
        if let environment {
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            execve(engine, argv, envp)
        } else {
            execv(engine, argv)
        }
        fail("\(engine) cannot be run: \(String(cString: strerror(errno)))", advice: "Check that it is an executable file you may run.")
    }

    private static func fail(_ message: String, advice: String) -> Never {
        let failure = CommandFailure(.localFailure, message, advice: advice)
        FileHandle.standardError.write(Data(failure.line(offering: []).utf8))
        exit(failure.status.rawValue)
    }
}
