package import CSoup

/// A job of Swift's concurrency handed to a GLib main context: the executor of ``WebKitActor``
/// (the default context) and the broker's bus executor (a ``MainContextThread``'s) both enqueue so.
package enum MainContextJob {
    /// Has `schedule` (a one-shot source on the executor's context) run `job` on `executor`.
    package static func enqueue(_ job: consuming ExecutorJob, on executor: UnownedSerialExecutor,
                                _ schedule: (GSourceFunc, UnsafeMutableRawPointer?) -> Void) {
        let slot = UnsafeMutablePointer<(job: UnownedJob, executor: UnownedSerialExecutor)>.allocate(capacity: 1)
        slot.initialize(to: (UnownedJob(job), executor))
        schedule({ data in
            let slot = data!.assumingMemoryBound(to: (job: UnownedJob, executor: UnownedSerialExecutor).self)
            let (job, executor) = slot.move()
            slot.deallocate()
            job.runSynchronously(on: executor)
            return 0  // G_SOURCE_REMOVE
        }, slot)
    }
}
