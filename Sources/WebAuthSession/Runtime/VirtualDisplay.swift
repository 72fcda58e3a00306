import Foundation

/// A private Xvfb X server for machines with no display (CI, services, SSH sessions).
///
/// Started with `-displayfd`, so the server itself picks a free display number and reports
/// it once it accepts connections: no polling and no guessed numbers. `-terminate` makes it
/// exit by itself when its last client goes, even if this process dies without cleaning up.
final class VirtualDisplay: Sendable {
    /// The display name, such as `:3`.
    let name: String
    private let process: Process

    /// Starts Xvfb and waits until it is ready.
    /// - Throws: ``WebAuthSessionError/noDisplay(_:)`` if Xvfb is missing or does not start.
    init(width: Int, height: Int) throws(WebAuthSessionError) {
        guard let executable = Self.locate("Xvfb") else {
            throw .noDisplay("no DISPLAY or WAYLAND_DISPLAY is set and Xvfb is not installed (apt-get install xvfb)")
        }
        let process = Process()
        let output = Pipe()
        process.executableURL = executable
        process.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24",
                             "-nolisten", "tcp", "-terminate", "-nocursor"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw .noDisplay("could not start Xvfb: \(error)")
        }
        // Xvfb writes the display number and a newline once it accepts connections;
        // end of file first means it exited.
        let reported = String(decoding: output.fileHandleForReading.readDataToEndOfLineOrFile(), as: UTF8.self)
        guard let number = Int(reported.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            process.waitUntilExit()
            throw .noDisplay("Xvfb did not start (it reported '\(reported)')")
        }
        self.name = ":\(number)"
        self.process = process
    }

    /// Stops the server and waits for it to exit.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    private static func locate(_ program: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(program) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

private extension FileHandle {
    /// Reads byte by byte up to a newline or end of file (the pipe stays open while Xvfb runs,
    /// so reading to end of file would wait for Xvfb to exit).
    func readDataToEndOfLineOrFile() -> Data {
        var data = Data()
        while let byte = try? read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            data.append(first)
        }
        return data
    }
}
