import Foundation

/// A private Xvfb X server for machines with no display (CI, services, SSH sessions).
///
/// Started with `-displayfd`, so the server itself picks a free display number and reports
/// it once it accepts connections: no polling and no guessed numbers. `-terminate` makes it
/// exit by itself when its last client goes, even if this process dies without cleaning up.
/// `-auth` makes it accept only clients that hold its cookie (``XAuthorityFile``): other local
/// users cannot open windows on it, read its screen or inject input.
/// Without `offersGL` the server runs without its GLX extension: Xvfb then starts in half the
/// time (it no longer loads Mesa's software renderer and LLVM), and nothing on it renders with GL.
/// It is spawned and reaped with plain `posix_spawn`/`waitpid` (not Foundation's `Process`),
/// because it is stopped from an exit handler, where Foundation's run loops no longer run.
final class VirtualDisplay: Sendable {
    /// The display name, such as `:3`.
    let name: String
    /// The cookie clients need (set `XAUTHORITY` to its path); removed by ``stop()``.
    let authority: XAuthorityFile
    private let pid: pid_t

    /// Starts Xvfb and waits until it is ready: a server whose socket file is missing is stopped
    /// and another started, twice at most.
    ///
    /// With `-displayfd`, Xvfb takes the first display number whose abstract socket is free, and
    /// keeps no lock file. A server on that number that is just exiting frees its abstract socket
    /// before it deletes its socket file (`/tmp/.X11-unix/X<n>`), which the new server has made
    /// anew by then: the new server answers through its abstract socket, but a sandboxed web
    /// process (a network namespace of its own, where abstract sockets do not reach) finds no file
    /// and cannot open the display. The old server has deleted it well before the new one reports
    /// ready (tens of milliseconds of set-up later), so the file is checked then.
    /// - Parameter offersGL: whether clients may render with GL (the GLX extension).
    /// - Throws: ``WebAuthenticationError/noDisplay(_:)-swift.enum.case`` if Xvfb is missing or does not start.
    init(width: Int, height: Int, offersGL: Bool) throws(WebAuthenticationError) {
        guard let executable = Self.locate("Xvfb") else {
            throw .noDisplay(.xvfbNotInstalled)
        }
        let authority = try XAuthorityFile()
        var started = false
        defer { if !started { authority.remove() } }
        var attempt = 1
        while true {
            let (pid, number) = try Self.start(executable, authority: authority, width: width, height: height, offersGL: offersGL)
            if Self.hasSocketFile(display: number) {
                self.name = ":\(number)"
                self.authority = authority
                self.pid = pid
                started = true
                return
            }
            Self.end(pid)
            guard attempt < 3 else { throw .noDisplay(.xvfbSocketMissing(display: ":\(number)")) }
            attempt += 1
        }
    }

    /// Spawns `executable` (Xvfb) with `authority` and waits for the display number it reports.
    private static func start(_ executable: String, authority: XAuthorityFile, width: Int, height: Int, offersGL: Bool) throws(WebAuthenticationError)
        -> (pid: pid_t, number: Int) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw .noDisplay(.pipeUnavailable(code: errno)) }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        // Only the child's fd 1 (a dup) may stay open in the child, or end of file never comes.
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [executable, "-displayfd", "1", "-auth", authority.path, "-screen", "0", "\(width)x\(height)x24",
                         "-nolisten", "tcp", "-terminate", "-nocursor"] + (offersGL ? [] : ["-extension", "GLX"])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
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
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
        close(writeEnd)
        guard status == 0 else { throw .noDisplay(.xvfbNotStarted(code: status)) }

        // Xvfb writes the display number and a newline once it accepts connections;
        // end of file first means it exited.
        var reported: [UInt8] = []
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) == 1, byte != UInt8(ascii: "\n") { reported.append(byte) }
        guard let number = Int(String(decoding: reported, as: UTF8.self)) else {
            end(pid)
            throw .noDisplay(.xvfbExited(reported: String(decoding: reported, as: UTF8.self)))
        }
        return (pid, number)
    }

    /// Whether display `number`'s socket file is there (and a socket), or there are no socket files
    /// at all (no `/tmp/.X11-unix`: Xvfb then listens on its abstract socket alone, as before the check).
    private static func hasSocketFile(display number: Int) -> Bool {
        var status = stat()
        guard stat("/tmp/.X11-unix", &status) == 0 else { return true }
        return stat("/tmp/.X11-unix/X\(number)", &status) == 0 && (status.st_mode & S_IFMT) == S_IFSOCK
    }

    /// Deletes the authority file and stops the server; `waiting`: reaps it too (else the process
    /// that started it is about to leave, and its parent's successor reaps it).
    func stop(waiting: Bool = true) {
        authority.remove()
        Self.end(pid, waiting: waiting)
    }

    /// Stops the server `pid` (SIGTERM); `waiting`: reaps it too.
    private static func end(_ pid: pid_t, waiting: Bool = true) {
        kill(pid, SIGTERM)
        if waiting { waitpid(pid, nil, 0) }
    }

    private static func locate(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { access($0, X_OK) == 0 }
    }
}
