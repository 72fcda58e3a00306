import Foundation

/// A test server written in Python (a script in `Tests/WebAuthSessionTests/Fixtures/`), started in
/// a private working directory; it prints its port on its first line. Killed (SIGKILL, as a
/// crash) when released, and reaped by its ``ChildProcess``. Both test targets start them.
public final class PythonFixtureServer: Sendable {
    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// The script's working directory (the files it makes).
    public let workdir: URL
    private let process: ChildProcess

    /// The folder of the fixture scripts.
    public static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WebAuthSessionTests/Fixtures")

    /// Starts `Fixtures/SCRIPT.py WORKDIR ARGUMENTS...` and waits for its port (on a thread of its
    /// own: a script may take seconds to get ready, and the pool's threads are for the tests).
    public init(script: String, arguments: [String] = []) async throws {
        let workdir = TemporaryFiles.folder("webauth-\(script)")
        let path = Self.fixtures.appendingPathComponent("\(script).py")
        let process = try ChildProcess("python3", [path.path, workdir.path] + arguments, environment: ProcessInfo.processInfo.environment, stdout: .pipe)
        guard let port = await process.firstLine().flatMap(Int.init) else {
            await process.stop()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(script).py did not start"])
        }
        self.port = port
        self.workdir = workdir
        self.process = process
    }

    /// `http://127.0.0.1:PORT` + `path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Kills the server now (SIGKILL): its sockets are closed by the kernel, as when a provider crashes.
    public func kill() {
        process.signal(SIGKILL)
    }

    /// Kills the server and waits until it is gone (its files are then complete).
    public func stop() async {
        await process.stop()
    }

    deinit {
        process.signal(SIGKILL)
    }
}
