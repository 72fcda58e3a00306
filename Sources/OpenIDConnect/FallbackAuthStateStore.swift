import Foundation

/// A store that never drops a state it was given: it saves to `primary` (the keyring), and when
/// that fails, to a ``FileAuthStateStore`` instead, telling `onFallback` which file now holds it.
///
/// The file, when there is one, is the newer state: it is read first, and a later successful
/// save to `primary` removes it. Processes take turns through the file store's lock
/// (``SharedAuthStateStore``), whichever store holds the state.
public struct FallbackAuthStateStore: SharedAuthStateStore {
    /// Where states go while it works.
    public let primary: any AuthStateStore
    /// Where a state goes when `primary` cannot take it.
    public let fallback: FileAuthStateStore
    private let onFallback: @Sendable (_ primaryError: AuthStateStoreError, _ file: URL) -> Void

    /// A store that saves to `primary`, else to `fallback`, calling `onFallback` each time it had to.
    public init(primary: any AuthStateStore, fallback: FileAuthStateStore,
                onFallback: @escaping @Sendable (_ primaryError: AuthStateStoreError, _ file: URL) -> Void) {
        self.primary = primary
        self.fallback = fallback
        self.onFallback = onFallback
    }

    /// The fallback file's state if there is one, else `primary`'s.
    public func load() async throws(AuthStateStoreError) -> AuthState? {
        if let saved = try fallback.load() { return saved }
        return try await primary.load()
    }

    /// Saves to `primary` and removes a fallback file left from before; if `primary` fails,
    /// saves to the fallback file and calls `onFallback`.
    /// - Throws: the fallback file's error, when neither store could take the state.
    public func save(_ state: AuthState) async throws(AuthStateStoreError) {
        do {
            try await primary.save(state)
        } catch {
            try fallback.save(state)
            onFallback(error, fallback.fileURL)
            return
        }
        // A file left from an earlier fallback would be read first: it goes, or takes this state too.
        do { try fallback.remove() } catch { try fallback.save(state) }
    }

    /// Removes the state from both stores; both are tried even if the first fails.
    /// - Throws: the first error.
    public func remove() async throws(AuthStateStoreError) {
        var failure: AuthStateStoreError?
        do { try fallback.remove() } catch { failure = error }
        do { try await primary.remove() } catch { failure = failure ?? error }
        if let failure { throw failure }
    }

    /// Holds the fallback file store's lock while `body` runs.
    public func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await fallback.withExclusiveLock(body)
    }
}
