import Foundation

/// A value behind a pthread mutex (Foundation's `NSLock`), used like `Synchronization.Mutex`, for
/// state that threads contend while ThreadSanitizer watches: it follows `pthread_mutex_lock`, not
/// the kernel hand-over of Swift 6.3's `Mutex` on Linux. CONTRIBUTING.md (Style) says when to use
/// which.
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
