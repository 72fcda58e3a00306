import Foundation
internal import CWebKitGTK

/// The process-wide sign-in engine: configuration, website data of persistent profiles,
/// diagnostics, and shutdown.
public enum WebAuthEngine {
    /// Sets the engine's configuration. Call it before the first session.
    /// - Throws: ``WebAuthSessionError/invalidOption(_:)`` once the engine has started.
    public static func configure(_ configuration: EngineConfiguration) throws(WebAuthSessionError) {
        let accepted = EngineRuntime.pendingConfiguration.withLock { state in
            guard !state.started else { return false }
            state.configuration = configuration
            return true
        }
        if !accepted { throw .invalidOption("the engine has already started; configure it before the first session") }
    }

    /// Ends every running session with ``WebAuthSessionError/engineShutDown``, destroys their
    /// windows, stops the engine's main-loop thread and its private Xvfb. After it, sessions
    /// fail with ``WebAuthSessionError/engineShutDown``. It also runs by itself when the process
    /// exits, so calling it is optional. Does nothing in a host-run main loop but close sessions.
    public static func shutdown() async {
        let runtime = EngineRuntime.shared
        await Task.detached { runtime.shutDownNow() }.value
    }

    /// Deletes everything a persistent profile keeps (cookies, local storage, caches,
    /// databases), like the "clear cookies" button of a browser.
    /// - Throws: ``WebAuthSessionError/profileUnavailable(path:message:)``.
    @WebKitActor
    public static func clearWebsiteData(profileDirectory: URL) async throws(WebAuthSessionError) {
        try GTKEnvironment.ready()
        let manager = try WebContextPool.shared.dataManager(profileDirectory: profileDirectory)
        try await WebsiteDataClearing.clearAll(manager, path: profileDirectory.path)
    }

    /// Counts of live engine objects, to check that sessions leave nothing behind.
    public struct Diagnostics: Sendable, Hashable {
        /// Web views created and not yet freed.
        public let liveWebViews: Int
        /// GTK top-level windows that exist.
        public let toplevelWindows: Int
    }

    /// The current ``Diagnostics``.
    @WebKitActor
    public static var diagnostics: Diagnostics {
        Diagnostics(liveWebViews: SessionRegistry.shared.liveViewCount,
                    toplevelWindows: SessionRegistry.shared.toplevelWindowCount)
    }
}
