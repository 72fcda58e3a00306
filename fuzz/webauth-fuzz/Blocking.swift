import Foundation

/// Runs `work` and waits for it: the parsers behind the endpoints are async, libFuzzer is not.
func runBlocking(_ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await work()
        done.signal()
    }
    done.wait()
}
