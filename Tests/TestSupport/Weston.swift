import Foundation

/// A private Wayland compositor for tests: weston's headless backend (no screen, no input
/// devices), with its socket in a `XDG_RUNTIME_DIR` of its own (a 0700 temporary directory).
/// Started through ``ChildProcess``; ready once its socket exists, which is awaited with inotify.
/// Killed when released.
public final class Weston: Sendable {
    /// Why no compositor could be had.
    public enum Failure: Error, CustomStringConvertible {
        /// weston is not on `PATH`.
        case notInstalled
        /// weston exited, or did not make its socket in time; `log` is what it wrote.
        case didNotStart(log: String)
        /// The runtime directory or the inotify watch could not be made.
        case system(String)

        public var description: String {
            switch self {
            case .notInstalled: "weston is not installed: run scripts/setup (apt-get install weston)"
            case .didNotStart(let log): "weston did not make its socket; its log:\n\(log)"
            case .system(let what): "no private runtime directory for weston: \(what)"
            }
        }
    }

    /// The socket's name, for `WAYLAND_DISPLAY`.
    public let socket = "webauth-wayland-0"
    /// The compositor's `XDG_RUNTIME_DIR`, where its socket is.
    public let runtimeDirectory: URL
    private let process: ChildProcess

    /// What a client needs to reach this compositor, and GTK to choose it: `WAYLAND_DISPLAY`,
    /// `XDG_RUNTIME_DIR` and `GDK_BACKEND=wayland`.
    public var environment: [String: String] {
        ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtimeDirectory.path, "GDK_BACKEND": "wayland"]
    }

    /// Starts weston with a `width`×`height` output and waits (at most 30 s) for its socket, on a
    /// thread of its own: a weston slow to start must not hold a thread of the cooperative pool.
    public init(width: Int = 1280, height: Int = 1024) async throws(Failure) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard path.split(separator: ":").contains(where: { access("\($0)/weston", X_OK) == 0 }) else { throw .notInstalled }
        var template = Array((NSTemporaryDirectory() + "webauth-weston-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw .system(String(cString: strerror(errno))) }  // mode 0700
        runtimeDirectory = URL(fileURLWithPath: String(cString: made))
        let watch = inotify_init1(Int32(IN_CLOEXEC))
        guard watch >= 0, inotify_add_watch(watch, runtimeDirectory.path, UInt32(IN_CREATE)) >= 0 else {
            throw .system("inotify: \(String(cString: strerror(errno)))")
        }
        defer { close(watch) }
        let log = runtimeDirectory.appendingPathComponent("weston.log").path
        do {
            process = try ChildProcess("weston", ["--backend=headless-backend.so", "--socket=\(socket)", "--width=\(width)",
                                                  "--height=\(height)", "--idle-time=0"],
                                       environment: ["PATH": path, "XDG_RUNTIME_DIR": runtimeDirectory.path, "HOME": runtimeDirectory.path],
                                       stdout: .file(log), stderr: .file(log))
        } catch {
            throw .system("could not start weston: \(error)")
        }
        let (socket, pid) = (socket, process.pid)
        let started = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.await(socket, in: watch, whileRunning: pid)) }.start()
        }
        guard started else {
            process.signal(SIGKILL)
            throw .didNotStart(log: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        }
    }

    /// Reads inotify events until one says `name` was created; `false` if weston exits first or
    /// nothing happens for 30 s.
    private static func await(_ name: String, in watch: Int32, whileRunning pid: pid_t) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptor = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 30_000) > 0 {
            let count = read(watch, &buffer, buffer.count)
            guard count > 0 else { return false }
            var offset = 0
            while offset < count {
                let (nameLength, created) = buffer.withUnsafeBytes { bytes in
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let raw = bytes[start..<start + Int(event.len)].prefix { $0 != 0 }
                    return (Int(event.len), String(decoding: raw, as: UTF8.self))
                }
                if created == name { return true }
                offset += MemoryLayout<inotify_event>.size + nameLength
            }
            if kill(pid, 0) != 0 { return false }
        }
        return false
    }

    /// Stops the compositor and waits for it.
    public func stop() async {
        await process.stop()
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }

    deinit {
        process.signal(SIGKILL)
    }
}
