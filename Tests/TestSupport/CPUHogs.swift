/// Busy loops beside a test (`sh -c 'while :; do :; done'`), one per core asked for: the load
/// under which a race between threads shows, as the suite's own load would make it.
public struct CPUHogs: Sendable {
    private let loops: [ChildProcess]

    /// Starts `count` busy loops.
    public init(count: Int = 2) throws {
        loops = try (0..<count).map { _ in try ChildProcess("/bin/sh", ["-c", "while :; do :; done"], environment: [:]) }
    }

    /// Kills the loops and waits for them.
    public func stop() async {
        for loop in loops { await loop.stop() }
    }
}
