import Foundation
import Synchronization
internal import CWebKitGTK

/// The process-wide engine: who runs the GLib main context, the display, GTK, and shutdown.
///
/// Created on first use of ``WebKitActor`` with the configuration in force then. In
/// dedicated-thread mode it starts a thread that iterates the default main context until
/// shutdown. Shutdown runs at the latest from an `atexit` handler, because a process that
/// exits while WebKit's thread still runs aborts in WebKit's own exit handlers.
final class EngineRuntime: Sendable {
    /// The one runtime; starting it freezes ``pendingConfiguration``.
    static let shared = EngineRuntime(configuration: pendingConfiguration.withLock { state in
        state.started = true
        return state.configuration
    })

    /// Configuration set through ``WebAuthEngine/configure(_:)`` before the runtime starts.
    static let pendingConfiguration = Mutex<(configuration: EngineConfiguration, started: Bool)>(
        (EngineConfiguration(), false))

    let configuration: EngineConfiguration
    /// Whether this runtime iterates the main context itself (false: the host application does).
    let ownsMainLoop: Bool
    private let state = Mutex<State>(State())

    /// A `GMainLoop *`. @unchecked: only `g_main_loop_run` and `g_main_loop_quit` are called
    /// on it, and GLib documents both as callable from any thread.
    private struct MainLoopHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private struct State {
        var loop: MainLoopHandle?
        var loopFinished: DispatchSemaphore?
        var display: VirtualDisplay?
        var scratchDirectory: String?
        var shutDown = false
    }

    private init(configuration: EngineConfiguration) {
        self.configuration = configuration
        switch configuration.mainLoop {
        case .host: ownsMainLoop = false
        case .dedicatedThread: ownsMainLoop = true
        case .automatic: ownsMainLoop = gdk_display_get_default() == nil
        }
        if ownsMainLoop { startLoopThread() }
        atexit { EngineRuntime.shared.tearDownAtExit() }
    }

    /// Whether the engine refuses new sessions (after ``WebAuthEngine/shutdown()`` or at exit).
    var isShutDown: Bool { state.withLock { $0.shutDown } }

    /// A private directory (mode 0700) for files WebKit writes even for ephemeral sessions;
    /// created on first use, removed at shutdown.
    func scratchDirectory() throws(WebAuthenticationError) -> String {
        let result: Result<String, WebAuthenticationError> = state.withLock { state in
            if let existing = state.scratchDirectory { return .success(existing) }
            let base = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
                ?? NSTemporaryDirectory()
            var template = Array((base + "/webauthsession-XXXXXX").utf8CString)
            guard let created = mkdtemp(&template) else {
                return .failure(.profileUnavailable(path: base, message: String(cString: strerror(errno))))
            }
            let path = String(cString: created)
            state.scratchDirectory = path
            return .success(path)
        }
        return try result.get()
    }

    /// Records the private display so shutdown stops it.
    func adopt(_ display: VirtualDisplay) {
        state.withLock { $0.display = display }
    }

    private func startLoopThread() {
        let loop = MainLoopHandle(pointer: g_main_loop_new(g_main_context_default(), 0)!)
        let finished = DispatchSemaphore(value: 0)
        state.withLock {
            $0.loop = loop
            $0.loopFinished = finished
        }
        let thread = Thread {
            g_main_loop_run(loop.pointer)
            finished.signal()
        }
        thread.name = "WebAuthSession main loop"
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Refuses new sessions from now on (they fail with ``WebAuthenticationError/engineShutDown``).
    func refuseNewSessions() {
        state.withLock { $0.shutDown = true }
    }

    /// The process is exiting: closes every session and window, stops the engine's loop thread
    /// (waiting for it), then the private display, and removes the scratch directory. In a
    /// host-run loop the host's own teardown closes the windows. Runs once, from `atexit`.
    func tearDownAtExit() {
        let (loop, finished, display, scratch) = state.withLock { state in
            defer {
                state.shutDown = true
                (state.loop, state.display, state.scratchDirectory) = (nil, nil, nil)
            }
            return (state.loop, state.loopFinished, state.display, state.scratchDirectory)
        }
        let onLoopThread = g_main_context_is_owner(g_main_context_default()) != 0
        if let loop, let finished, !onLoopThread {
            let tornDown = DispatchSemaphore(value: 0)
            Task { @WebKitActor in
                LiveSignInPages.shared.closeAll(reason: .engineShutDown)
                PrewarmedView.shared.discard()
                ReusableView.dropAll()
                tornDown.signal()
            }
            // A wedged loop must not hang the exit forever; the teardown takes milliseconds.
            _ = tornDown.wait(timeout: .now() + 5)
            g_main_loop_quit(loop.pointer)
            _ = finished.wait(timeout: .now() + 5)
        }
        display?.stop()
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }
}
