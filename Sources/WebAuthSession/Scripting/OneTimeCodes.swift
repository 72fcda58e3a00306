import Foundation
import OpenIDConnect
import Synchronization

/// Hands out TOTP codes the way a careful person types them: never a code about to expire (less
/// than ``margin`` left: the code waits for the next time step), and never the same time step's
/// code twice for one secret in this process (a provider refuses a reused code: the second sign-in
/// waits for the next step). It remembers, per secret (by its fingerprint, never the secret), the last step handed out.
final class OneTimeCodes: Sendable {
    /// The time a schedule reads and waits on; tests pass one that moves forward when it waits.
    struct Clock: Sendable {
        /// The current time.
        var now: @Sendable () -> Date
        /// Returns after `seconds` (or throws when the task is cancelled).
        var sleep: @Sendable (_ seconds: Double) async throws -> Void

        /// The system's clock.
        static let system = Clock(now: { Date() }, sleep: { seconds in try await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up)))) })
    }

    /// The schedule of this process, which every login script shares.
    static let shared = OneTimeCodes(clock: .system)

    /// A code is not handed out with less than this left: 5 s, or half the period if that is shorter.
    static func margin(for generator: TimeBasedOneTimePassword) -> Double {
        min(5, Double(generator.period) / 2)
    }

    private let clock: Clock
    private let lastSteps = Mutex<[String: UInt64]>([:])

    /// A schedule reading `clock`.
    init(clock: Clock) {
        self.clock = clock
    }

    /// The code to type now for `generator`, after waiting for the next time step if the current
    /// one is nearly over or its code was already handed out.
    /// - Throws: `CancellationError` if the task is cancelled while it waits.
    func next(for generator: TimeBasedOneTimePassword) async throws -> String {
        let key = generator.fingerprint
        while true {
            let now = clock.now()
            let step = generator.timeStep(at: now)
            let usable = generator.secondsLeft(at: now) >= Self.margin(for: generator)
            let claimed = lastSteps.withLock { lastSteps in
                guard usable, lastSteps[key].map({ $0 < step }) ?? true else { return false }
                lastSteps[key] = step
                return true
            }
            if claimed { return generator.code(forTimeStep: step) }
            try await clock.sleep(generator.secondsLeft(at: now))
        }
    }
}
