import Foundation

/// A `TaskExecutor` with threads of its own, on which every ``LocalHTTPServer`` runs its
/// connections and handlers.
///
/// A server must answer even when Swift's cooperative pool is busy: a test process whose tasks
/// wait on child processes, GTK or a display, or a program that blocks a pool thread, would
/// otherwise leave a browser or a `webauth` child waiting for a page that is never sent. Default
/// actors the handlers call run here too (a task executor preference carries to them).
final class ServerThreads: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` is only touched with `condition` locked.
    /// The threads every local server shares; idle, they wait on a condition and cost nothing.
    static let shared = ServerThreads(count: 2, name: "HTTPServer")  // "HTTPServer 1": Linux keeps 15 characters of a name

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(count: Int, name: String) {
        for index in 1...count {
            let thread = Thread { [self] in runJobs() }
            thread.name = "\(name) \(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs in the order they came, waiting while there are none; never returns.
    private func runJobs() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
