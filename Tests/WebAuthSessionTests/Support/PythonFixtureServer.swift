import Foundation

/// A test server written in Python (a script in Fixtures/), started in a private working
/// directory; it prints its port on its first line. Killed (SIGKILL: a child spawned from a
/// Swift runtime thread inherits a signal mask that blocks SIGTERM) when released.
final class PythonFixtureServer: Sendable {
    let port: Int
    private let process: Process

    /// Starts `Fixtures/SCRIPT.py WORKDIR` and waits for its port.
    init(script: String) throws {
        let workdir = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-\(script)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
        let path = Bundle.module.url(forResource: script, withExtension: "py", subdirectory: "Fixtures")!
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path.path, workdir.path]
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            Foundation.kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(script).py did not start"])
        }
        self.port = port
        self.process = process
    }

    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Kills the server now (SIGKILL): its sockets are closed by the kernel, as when a provider crashes.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    deinit {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
