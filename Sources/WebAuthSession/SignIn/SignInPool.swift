import Foundation
import OpenIDConnect

/// Many scripted sign-ins on one warm engine, for test harnesses: each sign-in has its own
/// session (its own cookie jar, storage and cache) and its own result; at most `width` run at
/// once, the others wait their turn.
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
    private var running = 0
    private var queue: [CheckedContinuation<Void, Never>] = []

    /// A pool of `width` (at least 1) concurrent sign-ins with `options`.
    public init(client: OpenIDConnectClient, width: Int = 4, options: WebAuthenticationOptions = SignInPool.defaultOptions) {
        self.client = client
        self.width = max(1, width)
        self.options = options
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
        return try await client.signIn(scopes: scopes, additionalParameters: additionalParameters, options: options, script: script)
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
