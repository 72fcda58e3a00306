import Foundation
import OpenIDConnect

/// Many scripted sign-ins on one warm engine, for test harnesses: each sign-in has its own
/// session (its own cookie jar, storage and cache) and its own result; at most `width` run at
/// once, the others wait their turn.
///
/// Each of the `width` places keeps its web view, and its web process, for the next sign-in
/// (``reusesViews``): the view is reset in between, and the next sign-in sees nothing of the last
/// (cookies, `window.name`, storage, IndexedDB, caches, connections, history). A view whose page left
/// what WebKit keeps beyond any clearing (HTTP credentials, a client certificate, a service worker)
/// is replaced by a new one. ``discardViews()`` lets go of the kept views.
///
/// ```swift
/// let pool = SignInPool(client: client, width: 4)
/// try await pool.prewarm()
/// let results = try await withThrowingTaskGroup(of: SignInResult.self) { group in
///     for user in users { group.addTask { try await pool.signIn(script: loginScript(for: user).runner()) } }
///     return try await group.reduce(into: []) { $0.append($1) }
/// }
/// ```
public actor SignInPool {
    /// The client every sign-in uses.
    public let client: OpenIDConnectClient
    /// How many sign-ins run at once.
    public let width: Int
    /// The session options of every sign-in (headless and ephemeral by default).
    public let options: WebAuthenticationOptions
    /// Whether each place keeps its web view from one sign-in to the next, reset in between. Only
    /// headless, ephemeral sessions without a CA file keep theirs (as ``defaultOptions``); others get a new view each time.
    public let reusesViews: Bool
    private var running = 0
    private var queue: [CheckedContinuation<Void, Never>] = []
    /// The places' views not in use.
    private var idleViews: [ReusableView] = []

    /// A pool of `width` (at least 1) concurrent sign-ins with `options`, whose places keep their
    /// web views unless `reusesViews` is false.
    public init(client: OpenIDConnectClient, width: Int = 4, options: WebAuthenticationOptions = SignInPool.defaultOptions,
                reusesViews: Bool = true) {
        self.client = client
        self.width = max(1, width)
        self.options = options
        self.reusesViews = reusesViews
    }

    /// Headless, ephemeral, a 2-minute timeout.
    public static var defaultOptions: WebAuthenticationOptions {
        var options = WebAuthenticationOptions()
        options.presentation = .headless
        options.timeout = .seconds(120)
        return options
    }

    /// Warms the engine up (see ``WebAuthEngine/prewarm()``) so the first sign-in does not pay for it.
    public func prewarm() async throws(WebAuthenticationError) {
        try await WebAuthEngine.prewarm()
    }

    /// Signs in once, waiting for a free place first.
    /// - Throws: ``SignInError``.
    public func signIn(scopes: [String] = ["openid"], additionalParameters: [String: String] = [:],
                       script: (@Sendable (WebAuthenticationSession) async throws -> Void)?) async throws(SignInError) -> SignInResult {
        await acquire()
        defer { release() }
        var options = options
        let place = reusesViews && ReusableView.lends(to: options) ? idleViews.popLast() ?? ReusableView() : nil
        defer { if let place { idleViews.append(place) } }  // after the sign-in: one place, one sign-in at a time
        if let place {
            await place.prepare()
            options.reusableView = place
        }
        return try await client.signIn(scopes: scopes, additionalParameters: additionalParameters, options: options, script: script)
    }

    /// Lets go of the web views (and their web processes) of the places not in use now, as at the
    /// end of a batch; a later sign-in makes a new one.
    public func discardViews() async {
        let places = idleViews
        idleViews = []
        for place in places { await place.discard() }
    }

    private func acquire() async {
        if running < width {
            running += 1
            return
        }
        await withCheckedContinuation { queue.append($0) }  // the place is handed over by release()
    }

    private func release() {
        if queue.isEmpty { running -= 1 } else { queue.removeFirst().resume() }
    }
}
