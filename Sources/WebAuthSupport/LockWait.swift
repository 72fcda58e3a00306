import Foundation
import Synchronization

/// A blocking `flock(LOCK_EX)` on a thread of its own, awaited without blocking one of Swift's
/// cooperative threads, and given up when a time limit passes or the task is cancelled.
package enum LockWait {
    /// How a wait ended.
    package enum Outcome: Sendable {
        /// The lock is held through the descriptor, which stays the caller's.
        case held
        /// `flock` failed with this `errno`; the descriptor stays the caller's.
        case failed(Int32)
        /// The limit passed or the task was cancelled first. The waiting thread now owns the
        /// descriptor and closes it when its `flock` returns: the caller must not touch it.
        case gaveUp
    }

    /// Waits for the exclusive lock on `descriptor`, at most `limit` (`nil`: no limit).
    package static func wait(for descriptor: Int32, atMost limit: Duration?) async -> Outcome {
        let settlement = Settlement()
        defer { settlement.timer.withLock { $0?.cancel() } }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                settlement.pending.withLock { $0 = continuation }
                Thread.detachNewThread {
                    let outcome: Outcome = flock(descriptor, LOCK_EX) == 0 ? .held : .failed(errno)
                    if !settlement.settle(outcome) { close(descriptor) }  // given up: releases the lock just taken
                }
                if let limit {
                    let timer = Task {
                        guard (try? await Task.sleep(for: limit)) != nil else { return }
                        settlement.settle(.gaveUp)
                    }
                    settlement.timer.withLock { $0 = timer }
                }
                if Task.isCancelled { settlement.settle(.gaveUp) }
            }
        } onCancel: {
            settlement.settle(.gaveUp)
        }
    }

    /// The one continuation of a wait, resumed by whichever of the thread, the timer and the
    /// cancellation comes first.
    private final class Settlement: Sendable {
        let pending = Mutex<CheckedContinuation<Outcome, Never>?>(nil)
        /// The task that gives up at the limit, cancelled once the wait is over.
        let timer = Mutex<Task<Void, Never>?>(nil)

        /// Resumes the wait with `outcome` unless it has been resumed already; says whether it did.
        @discardableResult
        func settle(_ outcome: Outcome) -> Bool {
            guard let continuation = pending.withLock({ pending in defer { pending = nil }; return pending }) else { return false }
            continuation.resume(returning: outcome)
            return true
        }
    }
}
