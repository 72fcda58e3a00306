import Foundation
import Synchronization
import PrivateDisplay
internal import CWebKitGTK

/// The process-wide engine: who runs the GLib main context, the display, GTK, and shutdown.
///
/// Created on first use of ``WebKitActor`` with the configuration in force then. In
/// dedicated-thread mode it starts a thread that iterates the default main context until
/// shutdown. Shutdown runs at the latest from an exit handler (`on_exit`), because a process that
/// exits while WebKit's thread still runs crashes in WebKit's, EGL's or GDK's exit handlers and
/// library destructors.
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
        /// The exit teardown has taken the display and the scratch directory: nothing records
        /// another (a start still under way when it took them stops its Xvfb itself).
        var tornDown = false
        /// What the layers above close at shutdown (``atShutdown(_:_:)``), in the order registered.
        var shutdownHooks: [(stage: ShutdownStage, hook: @Sendable @WebKitActor () -> Void)] = []
    }

    private init(configuration: EngineConfiguration) {
        self.configuration = configuration
        switch configuration.mainLoop {
        case .host: ownsMainLoop = false
        case .dedicatedThread: ownsMainLoop = true
        case .automatic: ownsMainLoop = gdk_display_get_default() == nil
        }
        if ownsMainLoop { startLoopThread() }
        on_exit({ status, _ in EngineRuntime.shared.tearDownAtExit(status: status) }, nil)
    }

    /// Whether the engine refuses new sessions (after ``WebAuthEngine/shutdown()`` or at exit).
    var isShutDown: Bool { state.withLock { $0.shutDown } }

    /// A private directory (mode 0700) for files WebKit writes even for ephemeral sessions;
    /// created on first use, removed at shutdown.
    func scratchDirectory() throws(WebAuthenticationError) -> String {
        let result: Result<String, WebAuthenticationError> = state.withLock { state in
            if let existing = state.scratchDirectory { return .success(existing) }
            if state.tornDown { return .failure(.engineShutDown) }
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

    /// Records the private display so shutdown stops it; once the exit teardown has begun to
    /// take what it removes, stops it at once instead.
    /// - Throws: ``WebAuthenticationError/engineShutDown`` then.
    func adopt(_ display: VirtualDisplay) throws(WebAuthenticationError) {
        let recorded = state.withLock { state in
            guard !state.tornDown else { return false }
            state.display = display
            return true
        }
        guard recorded else {
            display.stop()
            throw .engineShutDown
        }
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

    /// Runs `hook` on the loop when the engine shuts down (``WebAuthEngine/shutdown()``, or the
    /// exit teardown), after the hooks of earlier stages. The layers above the runtime register
    /// what they keep (the live pages, the prewarmed and the pools' views) when they first keep
    /// it, so the runtime closes them without knowing them.
    func atShutdown(_ stage: ShutdownStage, _ hook: @escaping @Sendable @WebKitActor () -> Void) {
        state.withLock { $0.shutdownHooks.append((stage: stage, hook: hook)) }
    }

    /// Runs the shutdown hooks, stage by stage.
    @WebKitActor
    func runShutdownHooks() {
        let hooks = state.withLock { $0.shutdownHooks }
        for stage in ShutdownStage.allCases {
            for registered in hooks where registered.stage == stage { registered.hook() }
        }
    }

    /// The process is exiting with `status`: refuses new sessions, closes every session and
    /// window, stops the engine's loop thread (waiting for it), ends WebKit's processes, then
    /// stops the private display and removes the scratch directory. In a host-run loop the host's
    /// own teardown closes the windows. Runs once, from the exit handler.
    ///
    /// Whatever the engine is doing when the exit begins, the process ends with `status` and
    /// leaves nothing behind:
    /// - starting (GTK's and the display's start run in one job on the loop thread): the teardown
    ///   job queues behind it and the loop ends after it, so the display and the scratch directory
    ///   are taken only once the loop thread has ended, when the start has recorded them; a start
    ///   that reaches ``adopt(_:)`` or ``scratchDirectory()`` later anyway finds them refused.
    /// - running: its sessions close on the loop, as above. WebKit's processes, which would
    ///   otherwise outlive the teardown by a moment (see ``WebKitChildProcesses``), are ended
    ///   before the display stops and the scratch directory goes.
    /// - wedged (the loop thread did not end within the waits): exit's remaining handlers and the
    ///   libraries' destructors must not run beside GDK and EGL on that thread (they crash there),
    ///   so after removing the scratch directory and stopping the display the process leaves with
    ///   `_exit(status)`, skipping them.
    func tearDownAtExit(status: Int32) {
        let (loop, finished) = state.withLock { state in
            state.shutDown = true
            return (state.loop, state.loopFinished)
        }
        let onLoopThread = g_main_context_is_owner(g_main_context_default()) != 0
        var loopEnded = true
        if let loop, let finished, !onLoopThread {
            let tornDown = DispatchSemaphore(value: 0)
            Task { @WebKitActor in
                self.runShutdownHooks()
                tornDown.signal()
            }
            // A wedged loop must not hang the exit forever; the teardown takes milliseconds.
            _ = tornDown.wait(timeout: .now() + 5)
            g_main_loop_quit(loop.pointer)
            loopEnded = finished.wait(timeout: .now() + 5) == .success
        }
        let (display, scratch) = state.withLock { state in
            defer {
                state.tornDown = true
                (state.loop, state.display, state.scratchDirectory) = (nil, nil, nil)
            }
            return (state.display, state.scratchDirectory)
        }
        WebKitChildProcesses.endAll()
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
        guard loopEnded else {
            // GDK still holds the display: it is told to go and not waited for, so that GDK has no
            // time to see its connection close (and exit 1) before this process has left.
            display?.stop(waiting: false)
            _exit(status)
        }
        display?.stop()
    }
}
