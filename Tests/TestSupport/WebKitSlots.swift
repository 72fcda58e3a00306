import Foundation
import Synchronization
import Testing

/// The suite-wide limit on tests that start WebKit: at most ``limit`` such tests run at
/// once, whatever suite they are in, while every other test runs as wide as Swift Testing runs it.
///
/// Why: each test that starts WebKit starts an Xvfb (or a compositor), a network process and web
/// processes, in a `webauth` child or in this process. Unbounded, Swift Testing starts every such
/// test at once: on two cores, 102 `webauth` children, 62 Xvfbs and 58 network processes were
/// alive together (146 runnable threads, load average 157), a login page needing a second of CPU
/// came half a minute after its navigation, and the tests that wait on a page a person would see
/// (the demos, the kiosk under xdotool) ran out of time, and with them tests of the in-process
/// provider that start no engine at all. CONTRIBUTING.md has the rule. A test
/// takes one slot for all the engines it starts (never a second: a test that starts two engines
/// at once cannot deadlock against another doing the same), and waits for it before its time
/// limit starts counting.
///
/// Mark a suite or a test with `.startsWebKit(minutes:)` instead of `.timeLimit`: Swift Testing
/// counts a time limit from the moment a test case starts, which would count the wait for a slot,
/// so the trait keeps the limit itself, counted from the moment the test has its slot.
/// `WEBAUTH_TEST_WEBKIT_SLOTS` sets the limit on tests at once (the default is twice the cores,
/// at least 2).
public struct WebKitSlot: TestTrait, SuiteTrait, TestScoping {
    /// How long a test may run once it has its slot.
    let timeLimit: Duration

    /// Applied to every test of a marked suite, one slot per test case.
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite || testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if Self.held { return try await function() }  // marked twice (suite and test): one slot, the outer limit
        await Self.slots.acquire()
        defer { Self.slots.release() }
        try await withoutActuallyEscaping(function) { function in
            try await Self.$held.withValue(true) { try await Self.run(function, within: timeLimit) }
        }
    }

    /// Runs `function`; past `limit`, records an issue and cancels it (as `.timeLimit` does), then
    /// waits for it to end (so `function` does not outlive the call).
    private static func run(_ function: @Sendable @escaping () async throws -> Void, within limit: Duration) async throws {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await function()
                return true
            }
            group.addTask {
                // The sleep is the time limit itself (the deadline the test races), not a wait for an event.
                do { try await Task.sleep(for: limit) } catch { return true }  // cancelled: the test ended first
                return false
            }
            let endedInTime = try await group.next() ?? true
            if !endedInTime { Issue.record("the test ran longer than its time limit (\(limit.components.seconds / 60) minutes) after it had its WebKit slot") }
            group.cancelAll()
            try await group.waitForAll()
        }
    }

    /// Whether the running test already holds a slot.
    @TaskLocal private static var held = false

    /// The limit: `WEBAUTH_TEST_WEBKIT_SLOTS`, or twice the cores (at least 2).
    public static let limit: Int = {
        if let text = ProcessInfo.processInfo.environment["WEBAUTH_TEST_WEBKIT_SLOTS"], let value = Int(text), value > 0 { return value }
        return max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)
    }()

    private static let slots = CountingSemaphore(limit)
}

extension Trait where Self == WebKitSlot {
    /// The test (or every test of the suite) starts WebKit: it runs only when one of the suite-wide
    /// ``WebKitSlot/limit`` slots is free, and then for at most `minutes`.
    public static func startsWebKit(minutes: Int) -> Self { WebKitSlot(timeLimit: .seconds(60 * minutes)) }
}

/// A first-come, first-served counting semaphore for tasks: `acquire` suspends (holding no thread)
/// until one of `count` permits is free.
final class CountingSemaphore: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(_ count: Int) { state = Mutex(State(free: count)) }

    /// Takes a permit, waiting in line for one if none is free.
    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// How many tasks wait in line for a permit.
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// Gives a permit back: to the first in line, or to the pool.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
