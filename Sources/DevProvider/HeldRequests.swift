import Synchronization

/// Requests the provider holds without answering (``ProviderFault/hangingTokenEndpoint``), until
/// it stops: a hung endpoint for tests, which still lets ``OpenIDProvider/stop()`` finish.
final class HeldRequests: Sendable {
    private let state = Mutex<(released: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Returns once ``releaseAll()`` has run.
    func hold() async {
        await withCheckedContinuation { continuation in
            let released = state.withLock { state in
                if !state.released { state.waiters.append(continuation) }
                return state.released
            }
            if released { continuation.resume() }
        }
    }

    /// Lets every held request (and every later one) go on.
    func releaseAll() {
        let waiters = state.withLock { state in
            state.released = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
