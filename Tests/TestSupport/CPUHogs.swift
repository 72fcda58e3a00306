import Foundation

/// Busy loops beside a test (`sh -c 'while :; do :; done'`), as many as `WEBAUTH_TEST_CPU_HOGS`
/// asks for (none by default): the load under which a race between threads shows. In a full
/// suite run the other suites are load enough, and two more loops on two cores starve the tests
/// that wait on a person-facing page; a run of one suite sets the variable to 2.
public struct CPUHogs: Sendable {
    private let loops: [ChildProcess]

    /// How many loops `WEBAUTH_TEST_CPU_HOGS` asks for.
    public static var requested: Int { Int(ProcessInfo.processInfo.environment["WEBAUTH_TEST_CPU_HOGS"] ?? "") ?? 0 }

    /// Starts `count` busy loops.
    public init(count: Int = requested) throws {
        loops = try (0..<count).map { _ in try ChildProcess("/bin/sh", ["-c", "while :; do :; done"], environment: [:]) }
    }

    /// Kills the loops and waits for them.
    public func stop() async {
        for loop in loops { await loop.stop() }
    }
}
