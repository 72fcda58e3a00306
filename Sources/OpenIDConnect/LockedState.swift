import Foundation

/// A value behind a pthread mutex (Foundation's `NSLock`), used like `Synchronization.Mutex`.
///
/// Why not `Mutex`: on Linux, Swift 6.3's `Mutex` waits in a priority-inheritance futex, and
/// under contention the kernel hands the lock from one thread to the next with no user-space
/// atomic in between. ThreadSanitizer cannot see that hand-over and reports races between
/// critical sections of the same lock; it follows `pthread_mutex_lock` and `unlock`. For state
/// that threads contend in code the sanitizer runs exercise.
package final class LockedState<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
