import Logging
import WebAuthBrokerContract
import WebAuthSession

/// The sign-in broker on the session bus (docs/dbus/org.webauthsession.Broker1.xml): any desktop
/// app, in any language, signs in with the engine, shares the sign-ins of `webauth`'s profiles,
/// and gets tokens of the accounts the person allowed it. `webauth broker` runs it.
public enum Broker {
    /// Serves on the session bus until nothing has happened for ``BrokerConfiguration/idleTimeout``
    /// (never with a request in flight); then its name is free for the next activation. It
    /// leaves sooner, cancelling the requests in flight, when its bus goes away or the calling task
    /// is cancelled (`webauth broker` cancels it on SIGTERM).
    /// - Throws: ``BrokerStartError`` when there is no session bus, or another broker runs.
    public static func run(_ configuration: BrokerConfiguration) async throws(BrokerStartError) {
        let logger = Logger(label: "webauth.broker")
        let service = try await BrokerService(configuration: configuration, logger: logger)
        try await service.serve()
    }
}

/// The broker's parts on the bus, put together: the broker object, the requests, the callers,
/// who may use what, and when to leave.
@BusActor
final class BrokerService {
    private let connection: BusConnection
    private let logger: Logger
    private let configuration: BrokerConfiguration
    private var idle: IdleTimer?
    private var requests: Requests?
    private var leaving = false
    private var finished: CheckedContinuation<Void, Never>?

    init(configuration: BrokerConfiguration, logger: Logger) throws(BrokerStartError) {
        connection = try BusConnection()
        self.configuration = configuration
        self.logger = logger
    }

    /// Exports the broker, takes its name, and returns once it has left.
    /// - Throws: ``BrokerStartError/nameTaken(_:)`` when another broker runs.
    func serve() async throws(BrokerStartError) {
        let idle = IdleTimer(timeout: configuration.idleTimeout) { [weak self] in self?.idleTimedOut() }
        self.idle = idle
        let callers = Callers(connection: connection)
        let requests = Requests(connection: connection, idle: idle, logger: logger)
        self.requests = requests
        let access = AccessPolicy(consent: ConsentStore(environment: configuration.environment), logger: logger)
        let accounts = AccountStore(environment: configuration.environment, keyringAnswers: await SecretServiceAuthStateStore.isAvailable, logger: logger)
        let broker = BrokerObject(configuration: configuration, accounts: accounts, callers: callers, requests: requests, access: access, idle: idle,
                                  logger: logger)
        connection.watchVanishingNames { name in
            requests.cancelAll(of: name)
            callers.forget(name)
        }
        do { _ = try connection.export([broker.interface], at: BrokerContract.objectPath) } catch { throw .noSessionBus(error.message) }
        try connection.requestName(BrokerContract.busName)
        connection.whenClosed { [weak self] in self?.leave(because: "the session bus went away", cancellingRequests: true) }
        logger.info("serving \(BrokerContract.busName) (idle exit after \(configuration.idleTimeout.components.seconds) s)")
        await withTaskCancellationHandler {
            await withCheckedContinuation { finished = $0 }
        } onCancel: {
            Task { @BusActor [weak self] in self?.leave(because: "stopped", cancellingRequests: true) }
        }
        withExtendedLifetime(broker) {}
    }

    /// Nothing in flight for the idle timeout: leaves.
    private func idleTimedOut() {
        leave(because: "idle for \(configuration.idleTimeout.components.seconds) s", cancellingRequests: false)
    }

    /// Gives the name back (new callers start another broker), then leaves once what reached this
    /// one before is answered (the idle exit) or, `cancellingRequests`, once the requests in flight,
    /// cancelled now, have ended (their pages closed): the bus went away, or SIGTERM came.
    private func leave(because reason: String, cancellingRequests: Bool) {
        if cancellingRequests { requests?.cancelAll() }
        if !leaving {
            leaving = true
            connection.releaseName(BrokerContract.busName)
            logger.info("\(reason): leaving")
            idle?.timeout = .zero
        }
        guard let idle, !idle.isBusy else { return }
        Task { @BusActor [weak self] in
            // Calls routed here before the name went have been dispatched by now (they were queued
            // ahead of this job): leave only if none of them started work.
            guard let self, let idle = self.idle, !idle.isBusy else { return }
            self.finished?.resume()
            self.finished = nil
        }
    }
}
