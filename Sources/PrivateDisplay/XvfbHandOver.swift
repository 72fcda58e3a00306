import Foundation
import Synchronization

/// The private Xvfb a headless `webauth login` with no display needs, started by `webauth` just
/// before it becomes `webauth-engine`, so that the server's start (27–50 ms) runs beside the
/// engine's own (loading its 180-odd libraries) instead of after it.
///
/// `webauth` names the server in the engine's environment (``variable``: the server's pid, its
/// report pipe's descriptor, the screen, the authority folder). The engine takes the variable out
/// of its environment first thing, so that no process it starts sees it, and takes the server
/// (``receive(_:)``) only if it is what `webauth` could have made:
/// a child of this process, a pipe, a folder of this user's made as ``XAuthorityFile`` makes them;
/// anything else is left alone. ``VirtualDisplay`` then claims it if its screen is the one asked
/// for. A server never claimed (a usage error, `--help`, another screen) is stopped, and its folder
/// removed, at exit. If the engine dies without exiting (SIGKILL, a crash), or cannot be started,
/// the kernel sends the server SIGTERM: it is tied to the thread that started it, `webauth`'s main
/// thread, which `execve` keeps as the engine's.
package enum XvfbHandOver {
    /// The environment variable that names the server.
    package static let variable = "WEBAUTH_HANDED_OVER_XVFB"
    /// The server received and not claimed yet.
    private static let received = Mutex<XvfbLaunch?>(nil)

    /// Starts the server for `screen`, tied to the calling thread (call it from the main thread,
    /// just before `execve`), and returns the variable's value for the environment of the program
    /// this process becomes, with the launch to ``XvfbLaunch/end()`` if that program cannot be
    /// started. `nil` when no server could start: the engine then tries itself, and says why if it cannot.
    package static func start(_ screen: XvfbScreen) -> (value: String, launch: XvfbLaunch)? {
        guard let launch = try? XvfbLaunch.start(screen, tiedToThisThread: true) else { return nil }
        let fields = [String(launch.pid), String(launch.report), String(screen.width), String(screen.height), screen.offersGL ? "1" : "0",
                      launch.authority.directory]
        return (fields.joined(separator: " "), launch)
    }

    /// Takes the server `value` (the variable's, which the caller has removed from its
    /// environment) names, if `webauth` started it for this process.
    package static func receive(_ value: String?) {
        guard let value, let launch = launch(named: value) else { return }
        _ = fcntl(launch.report, F_SETFD, FD_CLOEXEC)  // no process the engine starts inherits it
        received.withLock { $0 = launch }
        atexit { XvfbHandOver.received.withLock { $0.take() }?.end() }
    }

    /// The received server, if it was started for `screen`; a server for another screen is ended.
    static func claim(_ screen: XvfbScreen) -> XvfbLaunch? {
        guard let launch = received.withLock({ $0.take() }) else { return nil }
        guard launch.screen == screen else {
            launch.end()
            return nil
        }
        return launch
    }

    /// The server `value` names, if it names one this process may take: a child of this process
    /// that has not been reaped, a pipe above stderr, and an authority folder ``XAuthorityFile``
    /// could have made.
    package static func launch(named value: String) -> XvfbLaunch? {
        let fields = value.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
        guard fields.count == 6, let pid = pid_t(fields[0]), pid > 0, let report = Int32(fields[1]), report > 2,
              let width = Int(fields[2]), let height = Int(fields[3]), fields[4] == "0" || fields[4] == "1",
              isChild(pid), isPipe(report), let authority = XAuthorityFile(madeAt: String(fields[5]))
        else { return nil }
        return XvfbLaunch(pid: pid, authority: authority, screen: XvfbScreen(width: width, height: height, offersGL: fields[4] == "1"),
                          report: report)
    }

    /// Whether `pid` is a child of this process not yet reaped (it may have exited).
    private static func isChild(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0
    }

    /// Whether `descriptor` is open and a pipe.
    private static func isPipe(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
    }
}
