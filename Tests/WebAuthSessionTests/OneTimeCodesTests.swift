import Foundation
import OpenIDConnect
import Synchronization
import Testing
@testable import WebAuthSession

/// The TOTP schedule's rules, on a clock that moves forward only when the schedule waits.
@Suite("TOTP codes a login script types")
struct OneTimeCodesTests {
    /// A clock at a given time whose `sleep` moves it forward at once and records how long it slept.
    final class TestClock: Sendable {
        private let state: Mutex<(now: Date, sleeps: [Double])>
        init(_ seconds: Double) { state = Mutex((Date(timeIntervalSince1970: seconds), [])) }
        var sleeps: [Double] { state.withLock { $0.sleeps } }
        func set(_ seconds: Double) { state.withLock { $0.now = Date(timeIntervalSince1970: seconds) } }
        var clock: OneTimeCodes.Clock {
            OneTimeCodes.Clock(now: { self.state.withLock { $0.now } }, sleep: { seconds in
                self.state.withLock { $0.now += seconds; $0.sleeps.append(seconds) }
            })
        }
    }

    let generator = try! TimeBasedOneTimePassword(base32Secret: "JBSWY3DPEHPK3PXP")

    @Test("a code with 5 s or more left is typed at once")
    func enoughTimeLeft() async throws {
        let time = TestClock(3_000_000_010)  // 3_000_000_000 is a multiple of 30: 20 s left
        let code = try await OneTimeCodes(clock: time.clock).next(for: generator)
        #expect(code == generator.code(at: Date(timeIntervalSince1970: 3_000_000_010)))
        #expect(time.sleeps == [])
    }

    @Test("a code with less than 5 s left is not typed: it waits for the next time step")
    func nearlyExpired() async throws {
        let time = TestClock(3_000_000_026)  // 4 s left
        let code = try await OneTimeCodes(clock: time.clock).next(for: generator)
        #expect(time.sleeps == [4])
        #expect(code == generator.code(forTimeStep: 100_000_001))
        #expect(code != generator.code(forTimeStep: 100_000_000))
    }

    @Test("the same time step's code is never handed out twice for one secret; another secret is not held back")
    func noReuse() async throws {
        let time = TestClock(3_000_000_010)
        let codes = OneTimeCodes(clock: time.clock)
        let first = try await codes.next(for: generator)
        time.set(3_000_000_012)
        let other = try TimeBasedOneTimePassword(base32Secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
        #expect(try await codes.next(for: other) == other.code(forTimeStep: 100_000_000))
        #expect(time.sleeps == [])
        let second = try await codes.next(for: generator)
        #expect(time.sleeps == [18], "waited for the next time step")
        #expect(first == generator.code(forTimeStep: 100_000_000))
        #expect(second == generator.code(forTimeStep: 100_000_001))
    }
}
