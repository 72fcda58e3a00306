import Foundation
import CChildProcess

/// An Xvfb started with `-displayfd` whose display number has not been read yet: the server picks
/// a free number itself and writes it on the report pipe once it accepts connections, so nothing
/// polls and no number is guessed. `-terminate` makes it exit by itself when its last client goes,
/// even if the process that started it dies without cleaning up; `-auth` makes it accept only
/// clients that hold its cookie (``XAuthorityFile``), so other local users cannot open windows on
/// it, read its screen or inject input.
///
/// Spawned with plain `posix_spawn` (or, tied to its thread, `CChildProcess`'s fork and exec) and
/// reaped with `waitpid`, not Foundation's `Process`, because it is stopped from an exit handler,
/// where Foundation's run loops no longer run. A launch ends one of two ways:
/// ``readDisplayNumber()``, after which ``VirtualDisplay`` owns the server, or ``end()``.
package struct XvfbLaunch: Sendable {
    /// The server's process.
    package let pid: pid_t
    /// Its cookie's file, removed when the server is stopped.
    package let authority: XAuthorityFile
    /// The screen it was started with.
    package let screen: XvfbScreen
    /// The read end of the pipe the server reports its display number on.
    let report: Int32

    /// Starts Xvfb (the first on `PATH`) with a fresh ``XAuthorityFile`` and returns at once. Its
    /// environment is `PATH` alone: the process that starts it may hold secrets in its own (`webauth`
    /// does until the engine withholds them), and Xvfb needs none of it.
    /// - Parameter tiedToThisThread: the server gets SIGTERM when the calling thread ends (Linux's
    ///   parent-death signal), and the report pipe stays open across `execve`: for a server handed
    ///   to the program this process becomes (``XvfbHandOver``), which the server must not outlive
    ///   if that program never takes it. Only the main thread of a process that does not end it
    ///   may ask for this.
    /// - Throws: ``NoDisplayReason/xvfbNotInstalled``, the authority file's reasons,
    ///   ``NoDisplayReason/pipeUnavailable(code:)`` or ``NoDisplayReason/xvfbNotStarted(code:)``.
    package static func start(_ screen: XvfbScreen, tiedToThisThread: Bool = false) throws(NoDisplayReason) -> XvfbLaunch {
        guard let executable = locate("Xvfb") else { throw .xvfbNotInstalled }
        let authority = try XAuthorityFile()
        var pipeEnds: [Int32] = [0, 0]
        // Only the child's fd 1 (a dup) may stay open in the child, or end of file never comes.
        guard pipe(&pipeEnds) == 0 else {
            authority.remove()
            throw .pipeUnavailable(code: errno)
        }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        let arguments = [executable, "-displayfd", "1", "-auth", authority.path, "-screen", "0", "\(screen.width)x\(screen.height)x24",
                         "-nolisten", "tcp", "-terminate", "-nocursor"] + (screen.offersGL ? [] : ["-extension", "GLX"])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=" + searchPath), nil]
        defer { environment.forEach { free($0) } }
        var pid: pid_t = 0
        let status = tiedToThisThread ? cchild_spawn_tied(executable, &argv, &environment, writeEnd, &pid)
            : spawn(executable, argv: &argv, environment: &environment, output: writeEnd, pid: &pid)
        close(writeEnd)
        guard status == 0 else {
            close(readEnd)
            authority.remove()
            throw .xvfbNotStarted(code: status)
        }
        if tiedToThisThread { _ = fcntl(readEnd, F_SETFD, 0) }
        return XvfbLaunch(pid: pid, authority: authority, screen: screen, report: readEnd)
    }

    /// `posix_spawn` of `executable` with `output` as its stdout, stdin and stderr /dev/null.
    private static func spawn(_ executable: String, argv: inout [UnsafeMutablePointer<CChar>?], environment: inout [UnsafeMutablePointer<CChar>?],
                              output: Int32, pid: inout pid_t) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The child inherits the spawning thread's signal mask, and threads made by the Swift
        // runtime block most signals: unblock them and reset dispositions, or SIGTERM is ignored.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        var allSignals = sigset_t()
        sigemptyset(&emptyMask)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return posix_spawn(&pid, executable, &actions, &attributes, &argv, &environment)
    }

    /// Waits for the display number the server reports once it accepts connections, and closes
    /// the report pipe. A server that ends first (end of file) is reaped and its authority removed.
    /// - Throws: ``NoDisplayReason/xvfbExited(reported:)``.
    func readDisplayNumber() throws(NoDisplayReason) -> Int {
        defer { close(report) }
        var reported: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(report, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1, byte != UInt8(ascii: "\n") else { break }
            reported.append(byte)
        }
        guard let number = Int(String(decoding: reported, as: UTF8.self)) else {
            stop()
            throw .xvfbExited(reported: String(decoding: reported, as: UTF8.self))
        }
        return number
    }

    /// Ends a launch whose number was never read (one no program will take): closes the report
    /// pipe, then stops the server and removes its authority folder.
    package func end() {
        close(report)
        stop()
    }

    /// Deletes the authority file and stops the server (SIGTERM); `waiting`: reaps it too (else
    /// the process that started it is about to leave, and its parent's successor reaps it).
    func stop(waiting: Bool = true) {
        authority.remove()
        kill(pid, SIGTERM)
        if waiting { waitpid(pid, nil, 0) }
    }

    /// Where programs are looked for: `PATH`, else the usual folders.
    private static var searchPath: String { ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin" }

    private static func locate(_ program: String) -> String? {
        searchPath.split(separator: ":").map { "\($0)/\(program)" }.first { access($0, X_OK) == 0 }
    }
}
