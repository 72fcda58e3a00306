import Logging
import WebAuthBrokerContract

/// The `SignIn` and `SignOut` requests in progress, each an object at its handle
/// (`org.webauthsession.Request1`) until its `Response`, xdg-desktop-portal's request pattern: the
/// method returns the handle at once, the result comes as a signal, because a person takes longer
/// than any D-Bus call may wait. `Response` carries tokens: it goes to the caller's unique name
/// only (a unicast signal). A request outlives any other caller's crash; its own caller's `Close()`
/// or disconnection cancels it (its window closes) and no `Response` follows.
@BusActor
final class Requests {
    /// One request in progress.
    private struct Running {
        let handle: RequestHandle
        let registrations: [UInt32]
        var task: Task<Void, Never>?
    }

    private let connection: BusConnection
    private let idle: IdleTimer
    private let logger: Logger
    private var running: [String: Running] = [:]
    private var nextToken = 0

    init(connection: BusConnection, idle: IdleTimer, logger: Logger) {
        self.connection = connection
        self.idle = idle
        self.logger = logger
    }

    /// Exports a request for `call`'s caller under `token` (else one made here), answers `call`
    /// with its handle, then runs `work` and sends its outcome as `Response`.
    /// - Throws: ``BrokerErrorName/invalidArgument`` for a token the caller already uses.
    func start(for call: IncomingCall, token: String?, _ work: @escaping @Sendable () async throws(BrokerError) -> [String: BusValue]) throws(BrokerError) {
        let handle = RequestHandle(sender: call.sender, token: token ?? madeToken(for: call.sender))
        guard running[handle.path] == nil else {
            throw .invalidArgument("the handle_token '\(token ?? "")' is in use by another request of this caller")
        }
        let close = ExportedInterface(name: BrokerContract.requestInterface) { [weak self] close in self?.close(close) }
        let registrations = try connection.export([close], at: handle.path)
        running[handle.path] = Running(handle: handle, registrations: registrations)
        idle.begin()
        call.reply([.objectPath(handle.path)])
        running[handle.path]?.task = Task { @BusActor [weak self] in
            let outcome: Result<[String: BusValue], BrokerError>
            do throws(BrokerError) { outcome = .success(try await work()) } catch { outcome = .failure(error) }
            self?.finish(handle, outcome, cancelled: Task.isCancelled)
        }
    }

    /// Cancels every request of `sender`, which disconnected: their windows close.
    func cancelAll(of sender: String) {
        for request in running.values where request.handle.sender == sender {
            logger.info("the caller \(sender) left: its request \(request.handle.path) is cancelled")
            request.task?.cancel()
        }
    }

    /// Cancels every request: the broker leaves before they end (its bus went away, or SIGTERM
    /// came). Their windows close and no `Response` follows.
    func cancelAll() {
        for request in running.values {
            logger.info("the broker is leaving: its request \(request.handle.path) is cancelled")
            request.task?.cancel()
        }
    }

    /// Whether any request runs.
    var isEmpty: Bool { running.isEmpty }

    /// `Close()`: only the request's own caller may close it.
    private func close(_ call: IncomingCall) {
        guard call.method == "Close", let request = running[call.objectPath] else { return call.reply([]) }
        guard request.handle.sender == call.sender else {
            return call.fail(BrokerError(.accessDenied, "only the caller that made a request may close it"))
        }
        request.task?.cancel()
        call.reply([])
    }

    /// Sends the outcome to the caller (none for a request it cancelled) and removes the request.
    private func finish(_ handle: RequestHandle, _ outcome: Result<[String: BusValue], BrokerError>, cancelled: Bool) {
        defer {
            if let request = running.removeValue(forKey: handle.path) { connection.unexport(request.registrations) }
            idle.end()
        }
        let response: RequestResponse
        let results: [String: BusValue]
        switch outcome {
        case .success(let values): (response, results) = (.success, values)
        case .failure where cancelled:
            logger.info("request \(handle.path) cancelled")
            return
        case .failure(let error):
            response = error.name == .cancelled ? .cancelled : .failed
            results = BrokerResults.failure(error)
            logger.info("request \(handle.path) failed: \(error.name.rawValue): \(error.message)")
        }
        connection.emit(BrokerContract.responseSignal, of: BrokerContract.requestInterface, from: handle.path, to: handle.sender,
                        [.uint32(response.rawValue), .dictionary(results)])
    }

    /// A token `sender` does not use yet.
    private func madeToken(for sender: String) -> String {
        repeat { nextToken += 1 } while running[RequestHandle(sender: sender, token: "webauth\(nextToken)").path] != nil
        return "webauth\(nextToken)"
    }
}
