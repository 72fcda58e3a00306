import WebAuthSession
import WebAuthCommandLine

/// The cold-start overlap: the engine (its Xvfb, GTK, the shared web context and its sandbox
/// check) starts while a command does what comes before its first page (discovery, the
/// profile's store).
///
/// The engine's changes to the process environment come first, before anything runs beside
/// them: glibc's `setenv` may move the environment while another thread's `getenv` reads it (the
/// keyring's libsecret, a DNS lookup), which crashed `webauth login` (seen once in 100 cold
/// headless logins, the keyring's check reading the environment as GTK's start wrote it).
///
/// The start is awaited, never left behind: it is a child of a task group, and a task group
/// awaits its children whichever way its body leaves. So a command never exits (and the
/// process's exit handlers and library destructors never run) while GTK, GDK or EGL are
/// starting on the engine's thread: the exit finds the engine started or never started.
enum EngineHeadStart {
    /// The page a command is about to show.
    enum Page {
        /// None: another flow (the device grant, the system browser).
        case none
        /// A window or a kiosk, for a person.
        case window
        /// Off screen: the engine can start ahead of it.
        case headless
    }

    /// Runs `body` after the engine's changes to the environment for `page`, with the engine
    /// starting beside it for a headless page, and returns or rethrows `body`'s outcome only once
    /// that start has ended. When `body` throws (a failed discovery, or the cancellation of
    /// Ctrl-C), the group cancels the start: one that has not begun is skipped; one under way
    /// cannot be interrupted (it runs synchronously on the engine's thread) and is awaited. A failed
    /// start (or no display for a window) is not reported here: the page meets it when it opens.
    static func overlapping<T>(_ page: Page, _ body: () async throws -> T) async throws -> T {
        if page != .none { try? await WebAuthEngine.prepareEnvironment(headless: page == .headless) }
        return try await withThrowingDiscardingTaskGroup(returning: T.self) { group in
            if page == .headless {
                group.addTask {
                    guard !Task.isCancelled else { return }
                    try? await WebAuthEngine.prewarm()
                }
            }
            return try await body()
        }
    }
}
