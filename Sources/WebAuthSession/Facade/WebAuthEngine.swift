import Foundation
internal import CWebKitGTK

/// The process-wide sign-in engine: configuration, website data of persistent profiles,
/// diagnostics, and shutdown.
public enum WebAuthEngine {
    /// Sets the engine's configuration. Call it before the first session; afterwards, the
    /// configuration it started with is accepted again (a program may set it before each session).
    /// - Throws: ``WebAuthenticationError/invalidOption(_:)-swift.enum.case`` once the engine has started with
    ///   another configuration, or for a site in ``EngineConfiguration/trustedNegotiateSites``
    ///   that is not `http(s)://host[:port]`.
    public static func configure(_ configuration: EngineConfiguration) throws(WebAuthenticationError) {
        try NegotiateTrust.validate(configuration.trustedNegotiateSites)
        let accepted = EngineRuntime.pendingConfiguration.withLock { state in
            guard !state.started else { return state.configuration == configuration }
            state.configuration = configuration
            return true
        }
        if !accepted { throw .invalidOption(.engineAlreadyStarted) }
    }

    /// Makes the engine's changes to this process's environment now (the variables
    /// `Runtime/GTKEnvironment.swift` lists: TLS priorities, and with a private Xvfb its
    /// `DISPLAY` and `XAUTHORITY`), starting that Xvfb when there is no display and the sessions to
    /// come are `headless`. Otherwise the first session makes them. glibc's `setenv` may move the
    /// environment while `getenv` on another thread reads it (a DNS resolver, a proxy lookup,
    /// libsecret), which crashes that thread: a program that runs other threads calls this first,
    /// while nothing else runs. It changes no setting: the configuration decides.
    /// - Throws: ``WebAuthenticationError/noDisplay(_:)-swift.enum.case``,
    ///   ``WebAuthenticationError/noDisplayForWindow`` (not `headless`, and no display: nothing
    ///   changed), ``WebAuthenticationError/engineShutDown``.
    @WebKitActor
    public static func prepareEnvironment(headless: Bool) throws(WebAuthenticationError) {
        try GTKEnvironment.settle(forPerson: !headless)
    }

    /// Starts what the first sign-in would otherwise wait for: the main loop, the display (a
    /// private Xvfb when there is none), the shared web context with its network process, and,
    /// with ``EngineConfiguration/prewarmsWebViews``, the first ephemeral web view kept ready
    /// with its web process running. It changes no setting: the configuration decides.
    /// Optional: a pool or a harness calls it before it needs a sign-in.
    /// - Throws: ``WebAuthenticationError/noDisplay(_:)-swift.enum.case``, ``WebAuthenticationError/engineShutDown``.
    @WebKitActor
    public static func prewarm() throws(WebAuthenticationError) {
        try GTKEnvironment.ready()
        let context = try WebContextsByProfile.shared.context(for: .ephemeral)
        PrewarmedView.shared.warm(in: context)  // with prewarmed views: a web process and the network process
    }

    /// Ends every running session with ``WebAuthenticationError/engineShutDown``, destroys their
    /// windows, lets go of the web views pools keep, and refuses new sessions (they fail with the same error). The engine's loop
    /// thread, its private Xvfb and its scratch directory are stopped and removed when the
    /// process exits, by themselves: calling this is only needed to end sessions early.
    @WebKitActor
    public static func shutdown() {
        EngineRuntime.shared.refuseNewSessions()
        EngineRuntime.shared.runShutdownHooks()
    }

    /// Deletes everything a persistent profile keeps (cookies, local storage, caches,
    /// databases), like the "clear cookies" button of a browser.
    /// - Throws: ``WebAuthenticationError/profileUnavailable(path:message:)``.
    @WebKitActor
    public static func clearWebsiteData(profileDirectory: URL) async throws(WebAuthenticationError) {
        try GTKEnvironment.ready()
        let manager = try WebContextsByProfile.shared.dataManager(profileDirectory: profileDirectory)
        try await WebsiteDataClearing.clearAll(manager, path: profileDirectory.path)
    }

    /// Counts of live engine objects, to check that sessions leave nothing behind.
    public struct Diagnostics: Sendable, Hashable {
        /// Web views created and not yet freed.
        public let liveWebViews: Int
        /// GTK top-level windows that exist (not counting GTK's own tooltip, menu and input-method popups).
        public let toplevelWindows: Int
        /// Whether web processes run in WebKit's sandbox, and if not, why.
        public let webProcessSandbox: WebProcessSandbox
    }

    /// The current ``Diagnostics``.
    @WebKitActor
    public static var diagnostics: Diagnostics {
        Diagnostics(liveWebViews: LiveSignInPages.shared.liveViewCount,
                    toplevelWindows: LiveSignInPages.shared.toplevelWindowCount,
                    webProcessSandbox: WebProcessSandbox.current)
    }
}
