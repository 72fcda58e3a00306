import Foundation
import OpenIDConnect
import TestSupport
import WebAuthSupport

/// The built `webauth` binary, run as a user would: in a child process with no standard input,
/// no display (so it starts its own Xvfb), and its own state directory.
struct WebAuthBinary {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// A fresh `$XDG_STATE_HOME` and `$XDG_DATA_HOME`, so saved sign-ins do not leak between tests.
    let home: URL
    /// Variables added to the environment of every run.
    var environment: [String: String] = [:]

    init() {
        home = TemporaryFiles.folder("webauth-cli")
    }

    /// What of this process's environment a run never sees: the display (a run starts its own
    /// Xvfb), the machine's proxy (a CI machine may have one for its package mirror; the tests
    /// that are about proxies set their own), and `XDG_RUNTIME_DIR`: once a test in this process
    /// has started the engine, it names the engine's scratch directory, and with it and the
    /// missing bus below WebKit starts its D-Bus proxy, which warns on the run's stderr (tests
    /// that are about the runtime directory set their own).
    static let machineVariables: Set<String> = ["DISPLAY", "WAYLAND_DISPLAY", "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY",
                                                "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY", "XDG_RUNTIME_DIR"]

    /// This process's environment without ``machineVariables``, with the sandbox's directories
    /// (the user's own `~/.config/webauth` is never read).
    var baseEnvironment: [String: String] {
        var base = ProcessInfo.processInfo.environment.filter { !Self.machineVariables.contains($0.key) }
        base["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        base["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        base["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        // No Secret Service: the file store, inspectable. The socket is in a directory of its own:
        // WebKit mounts that directory into its D-Bus proxy's sandbox.
        base["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + home.appendingPathComponent("no-bus").path
        return base.merging(environment) { $1 }
    }

    /// Runs `webauth arguments`; `environment` is added to the sandbox's. Output goes to files
    /// (no pipe can fill up) and the exit is awaited without blocking a thread of the pool,
    /// which an in-process provider needs to answer the child.
    func callAsFunction(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> Run {
        try await run(Self.binary, arguments, environment: extra)
    }

    /// Runs `executable` the same way (a ``ChildProcess``: Foundation's `Process` may never hear of
    /// the child's exit once WebKit's GLib has taken `SIGCHLD` in this process).
    func run(_ executable: URL, _ arguments: [String], environment extra: [String: String] = [:]) async throws -> Run {
        let id = UUID().uuidString
        let (outURL, errURL) = (home.appendingPathComponent("\(id).out"), home.appendingPathComponent("\(id).err"))
        let child = try ChildProcess(executable.path, arguments, environment: baseEnvironment.merging(extra) { $1 },
                                     stdout: .file(outURL.path), stderr: .file(errURL.path))
        let status = await child.exitStatus()
        return Run(status: status, stdout: try String(contentsOf: outURL, encoding: .utf8),
                   stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    /// Writes `text` to a file in the sandbox and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let url = home.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Writes `json` as the sandbox's default configuration file, `$XDG_CONFIG_HOME/webauth/config.json`
    /// (which `webauth broker` reads when it starts).
    func configure(_ json: String) throws {
        let folder = home.appendingPathComponent("config/webauth")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try json.write(to: folder.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
    }

    /// Writes an executable script `name` in the home folder and returns its path. Its descriptor
    /// is close-on-exec: a child another test forks meanwhile must not inherit it open for
    /// writing, or running the script fails with ETXTBSY (exit 126) for as long as that child lives.
    func executable(_ name: String, _ text: String) throws -> String {
        try Self.writeExecutable(at: home.appendingPathComponent(name).path, text)
    }

    /// Writes an executable script at `path`, through a close-on-exec descriptor (see
    /// ``executable(_:_:)``), and returns the path.
    static func writeExecutable(at path: String, _ text: String) throws -> String {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return path
    }

    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("webauth")
    }
}

extension WebAuthBinary {
    /// A `webauth` started in the background, so that a test can act on it (signal it) while it runs.
    struct Started {
        /// The child's process ID.
        let pid: pid_t
        /// The child's stderr, chunk by chunk as it writes it, until every writer has closed it.
        let stderr: AsyncStream<String>
        /// The child's exit status, once it has exited.
        let status: Task<Int32, Never>
    }

    /// Starts `webauth arguments` like ``callAsFunction(_:environment:)`` does, but returns at once;
    /// stderr is a pipe, read as it comes (stdout goes to `stdout`, or is discarded).
    func start(_ arguments: [String], environment extra: [String: String] = [:], stdout: URL? = nil) throws -> Started {
        let child = try ChildProcess(Self.binary.path, arguments, environment: baseEnvironment.merging(extra) { $1 },
                                     stdout: stdout.map { .file($0.path) } ?? .null, stderr: .pipe)
        return Started(pid: child.pid, stderr: child.outputChunks(), status: Task { await child.exitStatus() })
    }
}

extension ChildProcess {
    /// What the child writes to its ``ChildProcess/Stream/pipe``, chunk by chunk as it comes, until
    /// every writer has closed the pipe.
    func outputChunks() -> AsyncStream<String> {
        let (chunks, continuation) = AsyncStream<String>.makeStream()
        let pipe = output
        Thread {  // blocking reads of whatever has arrived
            while let data = pipe?.readChunkRetryingInterruptions(), !data.isEmpty { continuation.yield(String(decoding: data, as: UTF8.self)) }
            continuation.finish()
        }.start()
        return chunks
    }
}
