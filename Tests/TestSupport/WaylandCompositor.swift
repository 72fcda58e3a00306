import Foundation

/// A private Wayland compositor for tests, with no screen and no input devices: weston's headless
/// backend, or mutter's (`--headless`, which has xdg-foreign: a window of one client can be the
/// parent of another's). Its socket is in a `XDG_RUNTIME_DIR` of its own (a 0700 temporary
/// directory). Started through ``ChildProcess``; ready once its socket exists (``DirectoryWatch``).
/// Killed when released.
public final class WaylandCompositor: Sendable {
    /// Which compositor.
    public enum Kind: Sendable {
        /// weston, headless.
        case weston
        /// mutter, headless, on the session bus at `sessionBus` (it needs one), logging where it
        /// places each window (``log``: `Centered window W1 over transient parent`).
        case mutter(sessionBus: String)

        var program: String {
            switch self {
            case .weston: "weston"
            case .mutter: "mutter"
            }
        }
    }

    /// Why no compositor could be had.
    public enum Failure: Error, CustomStringConvertible {
        /// The compositor is not on `PATH`.
        case notInstalled(String)
        /// It exited, or did not make its socket in time; `log` is what it wrote.
        case didNotStart(String, log: String)
        /// The runtime directory or the inotify watch could not be made.
        case system(String)

        public var description: String {
            switch self {
            case .notInstalled(let program): "\(program) is not installed: run scripts/setup (apt-get install \(program))"
            case .didNotStart(let program, let log): "\(program) did not make its socket; its log:\n\(log)"
            case .system(let what): "no private runtime directory for the compositor: \(what)"
            }
        }
    }

    /// The socket's name, for `WAYLAND_DISPLAY`.
    public let socket = "webauth-wayland-0"
    /// The compositor's `XDG_RUNTIME_DIR`, where its socket is.
    public let runtimeDirectory: URL
    private let process: ChildProcess
    private let logPath: String

    /// What a client needs to reach this compositor, and GTK to choose it: `WAYLAND_DISPLAY`,
    /// `XDG_RUNTIME_DIR` and `GDK_BACKEND=wayland`.
    public var environment: [String: String] {
        ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtimeDirectory.path, "GDK_BACKEND": "wayland"]
    }

    /// What the compositor has written so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Starts `kind` with a `width`×`height` output and waits (at most 30 s) for its socket, on a
    /// thread of its own: a compositor slow to start must not hold a thread of the cooperative pool.
    public init(_ kind: Kind = .weston, width: Int = 1280, height: Int = 1024) async throws(Failure) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard path.split(separator: ":").contains(where: { access("\($0)/\(kind.program)", X_OK) == 0 }) else { throw .notInstalled(kind.program) }
        var template = Array((NSTemporaryDirectory() + "webauth-\(kind.program)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw .system(String(cString: strerror(errno))) }  // mode 0700
        runtimeDirectory = URL(fileURLWithPath: String(cString: made))
        let watch: DirectoryWatch
        do { watch = try DirectoryWatch(runtimeDirectory) } catch { throw .system("inotify: \(error)") }
        logPath = runtimeDirectory.appendingPathComponent("\(kind.program).log").path
        var environment = ["PATH": path, "XDG_RUNTIME_DIR": runtimeDirectory.path, "HOME": runtimeDirectory.path]
        let arguments: [String]
        switch kind {
        case .weston:
            arguments = ["--backend=headless-backend.so", "--socket=\(socket)", "--width=\(width)", "--height=\(height)", "--idle-time=0"]
        case .mutter(let bus):
            arguments = ["--headless", "--wayland", "--no-x11", "--virtual-monitor", "\(width)x\(height)", "--wayland-display=\(socket)"]
            environment.merge(["DBUS_SESSION_BUS_ADDRESS": bus, "MUTTER_DEBUG": "placement", "MUTTER_VERBOSE": "1"]) { $1 }
        }
        do {
            process = try ChildProcess(kind.program, arguments, environment: environment, stderr: .file(logPath))
        } catch {
            throw .system("could not start \(kind.program): \(error)")
        }
        guard await watch.awaitCreation(of: socket, whileRunning: process.pid) else {
            process.signal(SIGKILL)
            throw .didNotStart(kind.program, log: (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
        }
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
