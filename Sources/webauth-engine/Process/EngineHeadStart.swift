import WebAuthSession
import WebAuthCommandLine

/// The cold-start overlap: the engine (its Xvfb, GTK, the shared web context and its sandbox
/// check) starts while a command does what comes before its first page (discovery, the
/// profile's store).
///
/// The start is awaited, never left behind: it is a child of a task group, and a task group
/// awaits its children whichever way its body leaves. So a command never exits (and the
/// process's exit handlers and library destructors never run) while GTK, GDK or EGL are
/// starting on the engine's thread: the exit finds the engine started or never started.
enum EngineHeadStart {
    /// Runs `body` with the engine starting beside it when `starting`, and returns or rethrows
    /// `body`'s outcome only once that start has ended. When `body` throws (a failed discovery, or
    /// the cancellation of Ctrl-C), the group cancels the start: one that has not begun is
    /// skipped; one under way cannot be interrupted (it runs synchronously on the engine's
    /// thread) and is awaited. A failed start is not reported here: the page meets it when it opens.
    static func overlapping<T>(_ starting: Bool, _ body: () async throws -> T) async throws -> T {
        try await withThrowingDiscardingTaskGroup(returning: T.self) { group in
            if starting {
                group.addTask {
                    guard !Task.isCancelled else { return }
                    try? await WebAuthEngine.prewarm()
                }
            }
            return try await body()
        }
    }
}
