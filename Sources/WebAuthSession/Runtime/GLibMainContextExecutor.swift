internal import CWebKitGTK

/// A `SerialExecutor` that runs each job on the next iteration of the GLib default main
/// context, the context GTK and WebKit live on.
///
/// Jobs are attached as one-shot idle sources at default priority, so they run in order,
/// one at a time, on whichever thread iterates the context (the engine's own loop thread, or
/// the host application's GTK thread), and never inline inside another job.
final class GLibMainContextExecutor: SerialExecutor {
    /// The executor behind ``WebKitActor``. Touching it starts the engine's runtime.
    static let shared = GLibMainContextExecutor(runtime: EngineRuntime.shared)

    private let runtime: EngineRuntime

    private init(runtime: EngineRuntime) {
        self.runtime = runtime
    }

    func enqueue(_ job: consuming ExecutorJob) {
        MainContextJob.enqueue(job, on: asUnownedSerialExecutor()) { cwk_main_context_schedule(g_main_context_default(), $0, $1) }
    }

    func checkIsolated() {
        precondition(g_main_context_is_owner(g_main_context_default()) != 0,
                     "expected to run on the thread that iterates the GLib main context")
    }
}
