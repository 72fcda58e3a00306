/// When the broker may leave: after ``BrokerConfiguration/idleTimeout`` with nothing in flight (no
/// method call being answered, no request running). Each piece of work is counted in and out; the
/// timer starts when the count falls to zero, and anything new stops it.
@BusActor
final class IdleTimer {
    /// How long nothing must be in flight (zero once the broker is leaving: it goes as soon as it can).
    var timeout: Duration
    private let onIdle: @BusActor () -> Void
    private var inFlight = 0
    private var countdown: Task<Void, Never>?

    /// A timer that calls `onIdle` after `timeout` of nothing in flight, starting now.
    init(timeout: Duration, onIdle: @escaping @BusActor () -> Void) {
        self.timeout = timeout
        self.onIdle = onIdle
        restart()
    }

    /// Whether anything is in flight.
    var isBusy: Bool { inFlight > 0 }

    /// Work started: the broker stays.
    func begin() {
        inFlight += 1
        countdown?.cancel()
        countdown = nil
    }

    /// Work ended.
    func end() {
        inFlight -= 1
        if inFlight == 0 { restart() }
    }

    private func restart() {
        countdown?.cancel()
        let timeout = timeout
        countdown = Task { @BusActor [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil, let self, self.inFlight == 0 else { return }
            self.onIdle()
        }
    }
}
