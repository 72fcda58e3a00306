import Foundation

/// A real HTTPS server (Python's standard library) with a self-signed certificate made at
/// start-up: the certificate a TLS-failure test needs. Stopped when the value is released.
final class TLSTestServer: Sendable {
    let port: Int
    private let process: Process

    init() throws {
        let workdir = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
        let script = Bundle.module.url(forResource: "tls_server", withExtension: "py", subdirectory: "Fixtures")!
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, workdir.path]
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
        self.process = process
    }

    deinit {
        // SIGKILL, not terminate(): a child spawned from a Swift runtime thread inherits a
        // signal mask that blocks SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
