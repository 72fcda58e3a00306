import Foundation
import OpenIDConnect
import WebAuthSupport

/// A program the tests run, spawned with `posix_spawn` and reaped by a blocking `waitpid` on a
/// thread of its own: never through Foundation's `Process`.
///
/// Why: the tests run WebKit in the same process, and GLib's child watches take over `SIGCHLD`,
/// so Foundation's `Process` may never hear that its child exited. Its termination handler then
/// never runs, the child stays a zombie, and Swift Testing's exit-test monitor spins on it
/// (`waitid(P_ALL, WNOWAIT)`): the whole run hangs. A `waitpid` on the child's own pid needs no
/// signal. The child starts with no blocked signals and default handlers (the spawning thread's
/// mask would otherwise block `SIGTERM` in it).
public final class ChildProcess: Sendable {
    /// Where a standard stream goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A file, created or truncated.
        case file(String)
        /// A pipe this side reads from (``output``; one pipe, when both streams ask for it).
        case pipe
    }

    /// The child's process ID.
    public let pid: pid_t
    /// The read end of the pipe the child's standard output or error (or both) write to, when
    /// one of them is ``Stream/pipe``.
    public let output: FileHandle?
    /// Not a `Mutex`: see `LockedState` (the reaper thread and the waiting tests contend it).
    private let state = LockedState<(status: Int32?, waiters: [CheckedContinuation<Int32, Never>])>((nil, []))

    /// Starts `executable` with `arguments` and exactly `environment` (and the marker of
    /// ``LeftoverProcesses``, which fails the run if the child is still alive when the tests end,
    /// unless `outlivesTests`: a program that ends by itself once this process has); standard input is `/dev/null`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String],
                stdout: Stream = .null, stderr: Stream = .null, outlivesTests: Bool = false) throws {
        var environment = environment
        if !outlivesTests { environment[LeftoverProcesses.variable] = LeftoverProcesses.marker }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipeEnds: [Int32] = [-1, -1]
        for (descriptor, stream) in [(Int32(1), stdout), (2, stderr)] {
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .pipe:
                if pipeEnds[0] < 0 {
                    guard pipe(&pipeEnds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                    _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
                    _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)  // the child's dup2 copies stay open in it
                }
                posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], descriptor)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        guard status == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)
        }
        self.pid = pid
        output = pipeEnds[0] >= 0 ? FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true) : nil
        let spawned = pid
        let reaper = Thread { [self] in
            var raw: Int32 = 0
            while waitpid(spawned, &raw, 0) < 0, errno == EINTR {}
            let exited = raw & 0x7F == 0
            let code = exited ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
            let waiters = self.state.withLock { state in
                state.status = code
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: code) }
        }
        reaper.start()
    }

    /// The first line the child writes to ``output``, without its newline (nil at the end of the
    /// output before any). Read on a thread of its own: a fixture that takes seconds to start
    /// (a KDC, a Perl portal, fresh keys) must not hold a thread of the cooperative pool, which
    /// the tests running beside this one need.
    public func firstLine() async -> String? {
        await readingOffThePool { $0.readLineRetryingInterruptions() }
    }

    /// Everything the child writes to ``output`` until every writer has closed it, read on a
    /// thread of its own like ``firstLine()``.
    public func outputToEnd() async -> Data {
        await readingOffThePool { $0.readToEndRetryingInterruptions() } ?? Data()
    }

    private func readingOffThePool<T: Sendable>(_ read: @escaping @Sendable (FileHandle) -> T?) async -> T? {
        guard let output else { return nil }
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: read(output)) }.start()
        }
    }

    /// The exit status once the child has ended (128 + N if signal N ended it); waits without
    /// blocking a thread of the pool.
    public func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            let known = state.withLock { state in
                if state.status == nil { state.waiters.append(continuation) }
                return state.status
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// Sends `signal` to the child (if it has not been reaped yet).
    public func signal(_ signal: Int32) {
        if state.withLock({ $0.status }) == nil { kill(pid, signal) }
    }

    /// Kills the child (SIGKILL) and waits for it.
    public func stop() async {
        signal(SIGKILL)
        _ = await exitStatus()
    }
}
