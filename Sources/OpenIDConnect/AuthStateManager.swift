import Foundation

/// Keeps an ``AuthState`` usable: runs actions with fresh tokens, refreshing when needed, like
/// AppAuth's `performAction(freshTokens:)`.
///
/// Refreshes are single-flight: however many callers find the access token stale at once, one
/// refresh request is made and all of them get its result. Refreshes for other scopes or
/// resources (``freshAccessToken(minimumValidity:scopes:resources:)``) take turns with it, one
/// refresh token spent at a time. A rotated refresh token is saved (through `save`) before any
/// caller sees the new tokens, so a crash cannot lose it.
/// `invalid_grant` marks the state as needing sign-in (and saves that); a network error leaves
/// the state as it was.
public actor AuthStateManager {
    /// The current state.
    public private(set) var state: AuthState
    /// How close to expiry an access token is refreshed. Default: 60 seconds.
    public let tolerance: Duration
    private let endpoint: TokenEndpoint
    private let validator: IDTokenValidator?
    private let http: any HTTPClient
    private let save: @Sendable (AuthState) async throws -> Void
    private let shared: (any SharedAuthStateStore)?
    /// The refresh in flight for each target.
    private var refreshing: [AccessTokenTarget: Task<Result<AuthState, AuthStateError>, Never>] = [:]
    /// The refresh started last: the next one waits for it, as a rotation voids the refresh token it spent.
    private var lastRefresh: Task<Result<AuthState, AuthStateError>, Never>?

    /// A manager for `state`.
    /// - Parameters:
    ///   - state: the sign-in to keep fresh.
    ///   - authentication: the client's authentication at the token endpoint.
    ///   - tolerance: how long before its expiry an access token counts as stale and is refreshed.
    ///   - http: the HTTP client of the token and userinfo requests.
    ///   - save: persists a changed state; called before new tokens are handed out.
    public init(state: AuthState, authentication: ClientAuthentication = .none, tolerance: Duration = .seconds(60),
                http: any HTTPClient,
                save: @escaping @Sendable (AuthState) async throws -> Void = { _ in }) {
        self.init(state: state, authentication: authentication, tolerance: tolerance, http: http, save: save, shared: nil)
    }

    /// A manager that saves to `store`. When the store is shared between processes
    /// (``SharedAuthStateStore``, as ``FileAuthStateStore`` is), a refresh holds its lock and
    /// first reads the state again: if another process has refreshed meanwhile, its tokens are used.
    public init(state: AuthState, store: any AuthStateStore, authentication: ClientAuthentication = .none,
                tolerance: Duration = .seconds(60), http: any HTTPClient) {
        self.init(state: state, authentication: authentication, tolerance: tolerance, http: http,
                  save: { try await store.save($0) }, shared: store as? any SharedAuthStateStore)
    }

    private init(state: AuthState, authentication: ClientAuthentication, tolerance: Duration, http: any HTTPClient,
                 save: @escaping @Sendable (AuthState) async throws -> Void, shared: (any SharedAuthStateStore)?) {
        self.state = state
        self.tolerance = tolerance
        self.http = http
        self.save = save
        self.shared = shared
        self.endpoint = TokenEndpoint(configuration: state.configuration, clientID: state.clientID,
                                      authentication: authentication, dpop: state.dpopKey, http: http)
        self.validator = try? IDTokenValidator(configuration: state.configuration, clientID: state.clientID, clientSecret: authentication.secret,
                                               signing: state.client?.idTokenSigning, http: http)
    }

    /// Runs `action` with a fresh access token (and the current ID token), refreshing first if needed.
    public func withFreshTokens<T: Sendable>(
        _ action: @Sendable (_ accessToken: String, _ idToken: IDToken?) async throws -> T
    ) async throws -> T {
        let current = try await freshState(for: .signIn, minimumValidity: tolerance, force: false)
        guard let accessToken = current.accessToken else { throw AuthStateError.signInRequired(.noRefreshToken) }
        return try await action(accessToken, current.idToken)
    }

    /// A fresh access token.
    public func freshAccessToken() async throws(AuthStateError) -> String {
        try await freshAccessToken(minimumValidity: tolerance).token
    }

    /// An access token valid for at least `minimumValidity` more (default: ``tolerance``),
    /// refreshed first when it is not. With `scopes` or `resources`, a token for them alone,
    /// through the refresh grant's `scope` and `resource` (RFC 8707); it is kept apart
    /// (``AuthState/scopedAccessTokens``) and never replaces the sign-in's own token or scopes.
    /// - Throws: ``AuthStateError/accessTokenRefused(_:_:)`` when the provider will not issue a
    ///   token for those scopes or resources, and the errors of a refresh.
    public func freshAccessToken(minimumValidity: Duration? = nil, scopes: [String]? = nil,
                                 resources: [String] = []) async throws(AuthStateError) -> AccessToken {
        let target = AccessTokenTarget(scopes: scopes, resources: resources)
        let current = try await freshState(for: target, minimumValidity: minimumValidity ?? tolerance, force: false)
        guard let token = current.accessToken(for: target) else { throw .signInRequired(.noRefreshToken) }
        return token
    }

    /// The ID token, if it stays valid for at least `minimumValidity` more (default:
    /// ``tolerance``); else the new one of a refresh.
    /// - Throws: ``AuthStateError/noIDToken``, ``AuthStateError/idTokenNotRenewed(expiresAt:)``
    ///   when the refresh brought none, and the errors of a refresh.
    public func freshIDToken(minimumValidity: Duration? = nil) async throws(AuthStateError) -> IDToken {
        if let reason = state.reauthenticationReason { throw .signInRequired(reason) }
        guard let idToken = state.idToken else { throw .noIDToken }
        if idToken.expiresAt.timeIntervalSinceNow > Double((minimumValidity ?? tolerance).components.seconds) { return idToken }
        let renewed = try await freshState(for: .signIn, minimumValidity: tolerance, force: true).idToken
        guard let renewed, renewed != idToken else { throw .idTokenNotRenewed(expiresAt: idToken.expiresAt) }
        return renewed
    }

    /// The UserInfo claims, with a fresh token; on `401` the token is refreshed once and the
    /// request repeated. `sub` must be the ID token's.
    public func userinfo() async throws(AuthStateError) -> [String: JSONValue] {
        guard let url = state.configuration.userinfoEndpoint else { throw .openIDConnect(.missingEndpoint("userinfo_endpoint")) }
        var current = try await freshState(for: .signIn, minimumValidity: tolerance, force: false)
        var response = try await userinfoRequest(url, current)
        if response.status == 401 {
            current = try await freshState(for: .signIn, minimumValidity: tolerance, force: true)
            response = try await userinfoRequest(url, current)
        }
        let claims: [String: JSONValue]
        do { claims = try JSONResponse.decode([String: JSONValue].self, from: response, url: url) } catch { throw .openIDConnect(error) }
        if let expected = current.idToken?.subject, claims["sub"]?.stringValue != expected {
            throw .userinfoSubjectMismatch(expected: expected, actual: claims["sub"]?.stringValue)
        }
        return claims
    }

    /// The headers for a request `method url` of the caller's own with a fresh access token
    /// (refreshing first if needed): `Authorization`, and for a DPoP-bound sign-in a `DPoP` proof
    /// for that request (RFC 9449 §7).
    public func authorizationHeaders(method: String, url: URL) async throws(AuthStateError) -> [String: String] {
        let current = try await freshState(for: .signIn, minimumValidity: tolerance, force: false)
        do { return try current.authorizationHeaders(method: method, url: url) } catch { throw .openIDConnect(error) }
    }

    /// Refreshes now, whether or not the access token is stale (joining a refresh in flight),
    /// and returns the new state.
    @discardableResult
    public func refreshNow() async throws(AuthStateError) -> AuthState {
        try await freshState(for: .signIn, minimumValidity: tolerance, force: true)
    }

    /// Marks the state as signed out and saves it.
    public func markSignedOut() async throws(AuthStateError) {
        var next = state
        next.reauthenticationReason = .signedOut
        try await commit(next)
    }

    /// Treats the access token as expired and saves that, keeping the refresh token: the next
    /// ``freshAccessToken()`` refreshes (a credential helper's "this token was refused"). With a
    /// shared store, under its lock and on the stored state, so another process's refresh is kept.
    /// - Parameter failed: the token a caller says was refused (git's `erase` gives it): the
    ///   access token expires only if it is that one, so nobody can drop another's credential.
    public func expireAccessToken(ifItIs failed: String? = nil) async throws(AuthStateError) {
        guard let shared else {
            if let failed, state.accessToken != failed { return }
            return try await commit(state.expiringAccessToken())
        }
        do {
            try await shared.withExclusiveLock { try await self.expireUnderLock(shared, ifItIs: failed) }
        } catch let error as AuthStateError {
            throw error
        } catch {
            throw .saveFailed(String(describing: error))
        }
    }

    /// Expires the stored state's access token (another process may have refreshed since this one read it).
    private func expireUnderLock(_ store: any SharedAuthStateStore, ifItIs failed: String?) async throws(AuthStateError) {
        do { if let stored = try await store.load() { state = stored } } catch { throw .saveFailed(String(describing: error)) }
        if let failed, state.accessToken != failed { return }
        try await commit(state.expiringAccessToken())
    }

    /// A userinfo request with `current`'s access token (and a DPoP proof, retried once with a demanded nonce).
    private func userinfoRequest(_ url: URL, _ current: AuthState) async throws(AuthStateError) -> HTTPResponse {
        let http = self.http
        do {
            return try await DPoPNonce.retrying(url) { nonce throws(OpenIDConnectError) -> HTTPResponse in
                try await Self.get(url, headers: try current.authorizationHeaders(method: "GET", url: url, nonce: nonce), http: http)
            }
        } catch {
            throw .openIDConnect(error)
        }
    }

    private static func get(_ url: URL, headers: [String: String], http: any HTTPClient) async throws(OpenIDConnectError) -> HTTPResponse {
        do { return try await http.send(HTTPRequest(url: url, headers: headers.merging(["Accept": "application/json"]) { $1 })) } catch {
            throw .http(error)
        }
    }

    /// The state with a fresh access token for `target`: as it is, or after the (single) refresh
    /// in flight for it.
    private func freshState(for target: AccessTokenTarget, minimumValidity: Duration, force: Bool) async throws(AuthStateError) -> AuthState {
        if let reason = state.reauthenticationReason { throw .signInRequired(reason) }
        if !force, state.accessToken(for: target)?.isFresh(minimumValidity: minimumValidity) == true { return state }
        let task = refreshing[target] ?? startRefresh(for: target)
        return try await task.value.get()
    }

    private func startRefresh(for target: AccessTokenTarget) -> Task<Result<AuthState, AuthStateError>, Never> {
        let previous = lastRefresh
        let task = Task { () -> Result<AuthState, AuthStateError> in
            defer { refreshing[target] = nil }
            _ = await previous?.value  // its refresh token may be rotated: this one spends the new one
            do throws(AuthStateError) { return .success(try await refreshCoordinated(for: target)) } catch { return .failure(error) }
        }
        refreshing[target] = task
        lastRefresh = task
        return task
    }

    /// A refresh under the shared store's lock, if there is one: the state is read again first,
    /// and another process's refresh is adopted instead of spending the refresh token again.
    private func refreshCoordinated(for target: AccessTokenTarget) async throws(AuthStateError) -> AuthState {
        guard let shared else { return try await refresh(for: target) }
        do {
            return try await shared.withExclusiveLock {
                try await self.refreshUnderLock(shared, for: target)
            }
        } catch let error as AuthStateError {
            throw error
        } catch {
            throw .saveFailed(String(describing: error))
        }
    }

    private func refreshUnderLock(_ store: any SharedAuthStateStore, for target: AccessTokenTarget) async throws(AuthStateError) -> AuthState {
        let stored: AuthState?
        do { stored = try await store.load() } catch { throw .saveFailed(String(describing: error)) }
        if let stored, stored != state, stored.reauthenticationReason == nil {
            // Another process refreshed first: its refresh token is the live one, and its access
            // token for `target`, if new, is as new as a refresh would give.
            let renewed = stored.accessToken(for: target) != state.accessToken(for: target)
            state = stored
            if renewed, stored.accessToken(for: target)?.isFresh(minimumValidity: .zero) == true { return stored }
        }
        return try await refresh(for: target)
    }

    /// One refresh for `target`: new tokens saved and published, or the state marked when only a
    /// new sign-in helps.
    private func refresh(for target: AccessTokenTarget) async throws(AuthStateError) -> AuthState {
        guard let refreshToken = state.refreshToken else { throw try await markNeedsSignIn(.noRefreshToken) }
        let response: TokenResponse
        do {
            response = try await endpoint.refresh(refreshToken: refreshToken, scopes: target.scopes, resources: target.resources)
        } catch {
            if case .token(let oauth) = error {
                if oauth.isInvalidGrant { throw try await markNeedsSignIn(.refreshRejected(oauth)) }
                if ["invalid_scope", "invalid_target"].contains(oauth.error) { throw .accessTokenRefused(target, oauth) }
            }
            throw .openIDConnect(error)
        }
        let next = target.isSignIn ? state.refreshed(with: response, idToken: try await validatedIDToken(of: response))
                                   : state.storing(response, for: target)
        try await commit(next)
        return next
    }

    /// The refresh's ID token, validated, if it has one (a scoped refresh's is not kept).
    private func validatedIDToken(of response: TokenResponse) async throws(AuthStateError) -> IDToken? {
        guard let raw = response.idToken, let validator else { return nil }
        let idToken: IDToken
        // A sign-in saved for a client that registered `none` was made in the code flow (every
        // other refuses an unsigned token), and a refresh answers from its token endpoint.
        do { idToken = try await validator.validate(raw, nonce: nil, source: .codeFlowTokenEndpoint) } catch {
            throw .openIDConnect(.idToken(error))
        }
        // OpenID Connect Core §12.2: a refreshed ID token is about the same person.
        if let previous = state.idToken?.subject, previous != idToken.subject {
            throw .openIDConnect(.idToken(.subjectChanged(previous: previous, now: idToken.subject)))
        }
        return idToken
    }

    /// Marks and saves the state as needing sign-in; returns the error to throw.
    private func markNeedsSignIn(_ reason: AuthState.ReauthenticationReason) async throws(AuthStateError) -> AuthStateError {
        var next = state
        next.reauthenticationReason = reason
        try await commit(next)
        return .signInRequired(reason)
    }

    /// Saves `next`, then makes it the state: nobody sees tokens that are not saved.
    private func commit(_ next: AuthState) async throws(AuthStateError) {
        do { try await save(next) } catch { throw .saveFailed(String(describing: error)) }
        state = next
    }
}
