import Foundation
import Synchronization

/// Runs `work` on `input` and waits for it: the parsers behind the endpoints are async, libFuzzer is
/// not. The task takes the input from ``pendingInput`` rather than capturing it, and drops it
/// before it signals: a capture is released when the task is destroyed, which may come after this
/// call returns, and LeakSanitizer, which looks as soon as it returns, reported the input as
/// leaked (the device-authorization target).
func runBlocking(_ input: Data, _ work: @escaping @Sendable (Data) async -> Void) {
    pendingInput.withLock { $0 = input }
    Task.detached {
        do {
            let input = pendingInput.withLock { pending in
                defer { pending = nil }
                return pending ?? Data()
            }
            await work(input)
        }
        inputDone.signal()
    }
    inputDone.wait()
}

/// The input ``runBlocking(_:_:)`` hands its task; one at a time, as libFuzzer runs them.
private let pendingInput = Mutex<Data?>(nil)
/// Signalled when the task is done with its input.
private let inputDone = DispatchSemaphore(value: 0)
