import WebAuthSession

/// The thread that iterates the broker's main context, and the `SerialExecutor` of ``BusActor``:
/// each job runs once on the thread, in order, one at a time, never inline inside another
/// (`MainContextThread.schedule`). The context is the thread's thread-default one, so
/// GDBus calls back there for everything registered or called from ``BusActor`` code.
final class BusThread: SerialExecutor {
    /// The one bus thread, started on first use.
    static let shared = BusThread()

    private let thread = MainContextThread(name: "webauth-broker-bus")

    private init() {}

    func enqueue(_ job: consuming ExecutorJob) {
        MainContextJob.enqueue(job, on: asUnownedSerialExecutor(), thread.schedule)
    }

    func checkIsolated() {
        precondition(thread.isCurrent, "expected to run on the broker's bus thread")
    }
}
