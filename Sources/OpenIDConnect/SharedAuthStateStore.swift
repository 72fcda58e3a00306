/// A store that several processes may use at once (two `webauth token` commands, an app and its
/// helper). ``AuthStateManager`` holds the store's lock across a refresh and reads the state again
/// under it, so a refresh token is used once however many processes find the access token stale:
/// the first refreshes and saves, the others find the fresh state and use it.
public protocol SharedAuthStateStore: AuthStateStore {
    /// Runs `body` while holding the store's exclusive lock, across processes. The lock is taken
    /// to update the state: a store that cannot be written throws here, before `body` runs.
    func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
}
