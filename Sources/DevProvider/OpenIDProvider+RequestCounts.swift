import Foundation

/// What the tests ask of the requests the provider received: how many reached a path (the token
/// endpoint's by grant type, as `/token#refresh_token`), and a wait for the first one.
extension OpenIDProvider {
    /// How many requests reached `path` (for example `/token` with `grant_type=refresh_token`: see ``refreshCount``).
    public func requestCount(_ path: String) -> Int { state.withLock { $0.requestCounts[path] ?? 0 } }

    /// How many refresh-token grants the token endpoint has answered, successful or not.
    public var refreshCount: Int { requestCount("/token#refresh_token") }

    /// Returns once a request has reached `path` (at once if one has).
    public func firstRequest(to path: String) async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state in
                if state.requestCounts[path, default: 0] > 0 { return true }
                state.requestWaiters[path, default: []].append(waiter)
                return false
            }
            if reached { waiter.resume() }
        }
    }

    /// Counts a request to `path` and wakes whoever waits for its first.
    func count(_ path: String) {
        let waiters = state.withLock { state in
            state.requestCounts[path, default: 0] += 1
            return state.requestWaiters.removeValue(forKey: path) ?? []
        }
        for waiter in waiters { waiter.resume() }
    }
}
