import Foundation

/// A private Xvfb X server for machines with no display (CI, services, SSH sessions), ready for
/// clients: the one `webauth` handed over (``XvfbHandOver``) when it was started for this screen,
/// else one started here (``XvfbLaunch``).
package final class VirtualDisplay: Sendable {
    /// The display name, such as `:3`.
    package let name: String
    /// The cookie clients need (set `XAUTHORITY` to its path); removed by ``stop(waiting:)``.
    package var authority: XAuthorityFile { server.authority }
    private let server: XvfbLaunch

    /// Takes the handed-over server or starts one, and waits until it is ready: a server whose
    /// socket file is missing is stopped and another started, twice at most.
    ///
    /// With `-displayfd`, Xvfb takes the first display number whose abstract socket is free, and
    /// keeps no lock file. A server on that number that is just exiting frees its abstract socket
    /// before it deletes its socket file (`/tmp/.X11-unix/X<n>`), which the new server has made
    /// anew by then: the new server answers through its abstract socket, but a sandboxed web
    /// process (a network namespace of its own, where abstract sockets do not reach) finds no file
    /// and cannot open the display. The old server has deleted it well before the new one reports
    /// ready (tens of milliseconds of set-up later), so the file is checked then.
    /// - Throws: ``NoDisplayReason/xvfbSocketMissing(display:)`` after three such servers, or what
    ///   ``XvfbLaunch/start(_:tiedToThisThread:)`` and ``XvfbLaunch/readDisplayNumber()`` throw.
    package init(_ screen: XvfbScreen) throws(NoDisplayReason) {
        var handedOver = XvfbHandOver.claim(screen)
        var attempt = 1
        while true {
            let launch: XvfbLaunch
            if let taken = handedOver.take() { launch = taken } else { launch = try XvfbLaunch.start(screen) }
            let number = try launch.readDisplayNumber()
            if Self.hasSocketFile(display: number) {
                name = ":\(number)"
                server = launch
                return
            }
            launch.stop()
            guard attempt < 3 else { throw .xvfbSocketMissing(display: ":\(number)") }
            attempt += 1
        }
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
    package func stop(waiting: Bool = true) {
        server.stop(waiting: waiting)
    }
}
