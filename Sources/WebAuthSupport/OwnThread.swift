import Foundation

/// Runs the blocking `call` (a synchronous D-Bus call, a child process waited for, a PKCS#11
/// token signing) on a new thread named `name`, and awaits it without holding a thread of Swift's
/// cooperative pool.
package func onOwnThread<T: Sendable, Failure: Error>(named name: String,
                                              _ call: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
        let thread = Thread { continuation.resume(returning: Result(catching: call)) }
        thread.name = name
        thread.start()
    }
    return try result.get()
}
