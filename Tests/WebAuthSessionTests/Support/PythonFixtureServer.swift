import Foundation
import OpenIDConnect
import TestSupport

/// A test server written in Python (a script in Fixtures/), started in a private working
/// directory; it prints its port on its first line. Killed (SIGKILL, as a crash) when released,
/// and reaped by its ``ChildProcess``.
final class PythonFixtureServer: Sendable {
    let port: Int
    /// The script's working directory (the files it makes).
    let workdir: URL
    private let process: ChildProcess

    /// Starts `Fixtures/SCRIPT.py WORKDIR ARGUMENTS...` and waits for its port.
    init(script: String, arguments: [String] = []) async throws {
        let workdir = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-\(script)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
        let path = Bundle.module.url(forResource: script, withExtension: "py", subdirectory: "Fixtures")!
        let process = try ChildProcess("python3", [path.path, workdir.path] + arguments, environment: ProcessInfo.processInfo.environment, stdout: .pipe)
        guard let port = await process.firstLine().flatMap(Int.init) else {
            process.signal(SIGKILL)
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(script).py did not start"])
        }
        self.port = port
        self.workdir = workdir
        self.process = process
    }

    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Kills the server now (SIGKILL): its sockets are closed by the kernel, as when a provider crashes.
    func kill() {
        process.signal(SIGKILL)
    }

    deinit {
        process.signal(SIGKILL)
    }
}
