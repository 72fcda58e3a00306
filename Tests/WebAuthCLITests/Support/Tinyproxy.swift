import Foundation
import OpenIDConnect
import TestSupport
import WebAuthSupport

/// A real HTTP proxy for a test: Debian's tinyproxy with a configuration, a port and a log of its
/// own (never the system service), optionally asking for a user name and password (`407`).
final class Tinyproxy: Sendable {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let child: ChildProcess
    private let reservation: PortReservation
    /// Not a `Mutex`: see `LockedState` (the log reader thread and the waiting tests contend it).
    private let log = LockedState<(text: String, ended: Bool, waiters: [CheckedContinuation<Void, Never>])>(("", false, []))

    /// `http://127.0.0.1:PORT`.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Starts one and returns once it accepts connections.
    static func start(in directory: URL, user: String? = nil, password: String? = nil) async throws -> Tinyproxy {
        let reservation = try PortReservation()
        let configuration = directory.appendingPathComponent("tinyproxy-\(reservation.port).conf")
        try """
            Port \(reservation.port)
            Listen 127.0.0.1
            Timeout 60
            LogLevel Info
            MaxClients 20
            Allow 127.0.0.1
            \(user.map { "BasicAuth \($0) \(password ?? "")" } ?? "")
            """.write(to: configuration, atomically: true, encoding: .utf8)
        // -d: in the foreground, the log on standard output.
        let child = try ChildProcess("tinyproxy", ["-d", "-c", configuration.path], environment: ProcessInfo.processInfo.environment,
                                     stdout: .pipe, stderr: .pipe)
        let proxy = Tinyproxy(port: reservation.port, reservation: reservation, child: child)
        await proxy.waitUntilListening()
        return proxy
    }

    private init(port: Int, reservation: PortReservation, child: ChildProcess) {
        (self.port, self.reservation, self.child) = (port, reservation, child)
        let output = child.output!
        let thread = Thread { [self] in
            while true {
                let data = output.readChunkRetryingInterruptions() ?? Data()
                let waiters = self.log.withLock { state in
                    if data.isEmpty { state.ended = true } else { state.text += String(decoding: data, as: UTF8.self) }
                    defer { state.waiters = [] }
                    return state.waiters
                }
                waiters.forEach { $0.resume() }
                if data.isEmpty { return }
            }
        }
        thread.start()
    }

    /// Waits until its log says it accepts connections (or it ended).
    private func waitUntilListening() async {
        await waitForLog { ended, text in ended || text.contains("Accepting connections") }
    }

    /// Stops it and returns its whole log.
    func stop() async -> String {
        await child.stop()
        await waitForLog { ended, _ in ended }
        return log.withLock { $0.text }
    }

    /// Returns once `condition` holds for the log read so far; checks again at each read.
    private func waitForLog(until condition: @escaping @Sendable (_ ended: Bool, _ text: String) -> Bool) async {
        while !log.withLock({ condition($0.ended, $0.text) }) {
            await withCheckedContinuation { continuation in
                let holds = log.withLock { state in
                    if condition(state.ended, state.text) { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if holds { continuation.resume() }
            }
        }
    }
}
