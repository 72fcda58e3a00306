import OpenIDConnect
import WebAuthSupport

/// How many requests reached each path of the development provider (the token endpoint's by grant
/// type, as `/token#refresh_token`), and who waits for a path's first request.
final class RequestCounter: Sendable {
    private struct Counts: Sendable {
        var requests: [String: Int] = [:]
        var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    }

    /// Not a `Mutex`: see ``LockedState`` (server threads count, tests read).
    private let counts = LockedState(Counts())

    /// How many requests reached `path`.
    func count(of path: String) -> Int { counts.withLock { $0.requests[path] ?? 0 } }

    /// Returns once a request has reached `path` (at once if one has).
    func firstRequest(to path: String) async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let reached = counts.withLock { counts in
                if counts.requests[path, default: 0] > 0 { return true }
                counts.waiters[path, default: []].append(waiter)
                return false
            }
            if reached { waiter.resume() }
        }
    }

    /// Counts a request to `path` and wakes whoever waits for its first.
    func count(_ path: String) {
        let waiters = counts.withLock { counts in
            counts.requests[path, default: 0] += 1
            return counts.waiters.removeValue(forKey: path) ?? []
        }
        for waiter in waiters { waiter.resume() }
    }
}
