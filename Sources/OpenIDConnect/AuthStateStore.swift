import Foundation

/// Somewhere an ``AuthState`` is kept between runs. The requirements are `async` so that a store
/// that talks to another process (the Secret Service) never blocks a thread of Swift's pool.
public protocol AuthStateStore: Sendable {
    /// The saved state, or `nil` when there is none.
    func load() async throws(AuthStateStoreError) -> AuthState?
    /// Saves `state` in place of the previous one, all or nothing.
    func save(_ state: AuthState) async throws(AuthStateStoreError)
    /// Deletes the saved state; none is not an error.
    func remove() async throws(AuthStateStoreError)
}

/// The saved form of an ``AuthState``, shared by every store: a JSON object with a format marker,
/// so that what is not ours (or is damaged) is recognised and never overwritten.
package enum AuthStateArchive {
    /// The marker that says the content is ours.
    package static let format = "webauthsession.auth-state"

    /// The archive of `state`; `location` names the store in errors.
    package static func encode(_ state: AuthState, location: String) throws(AuthStateStoreError) -> Data {
        do { return try JSONEncoder().encode(Archive(format: format, state: state)) } catch {
            throw .io(path: location, message: "encoding failed: \(error)")
        }
    }

    /// The state in `data`, migrated to ``AuthState/currentVersion`` if it is older.
    /// - Throws: ``AuthStateStoreError/foreignFile(path:)`` for someone else's content,
    ///   ``AuthStateStoreError/newerVersion(path:version:)`` for a format this library does not know yet,
    ///   ``AuthStateStoreError/corrupt(path:reason:)`` for ours, damaged.
    package static func decode(_ data: Data, location: String) throws(AuthStateStoreError) -> AuthState {
        guard let marker = try? JSONDecoder().decode(FormatMarker.self, from: data) else {
            throw .corrupt(path: location, reason: "not a JSON object")
        }
        guard marker.format == format else { throw .foreignFile(path: location) }
        if let version = marker.state?.version, version > AuthState.currentVersion {
            throw .newerVersion(path: location, version: version)
        }
        do {
            return try JSONDecoder().decode(Archive.self, from: data).state
        } catch {
            throw .corrupt(path: location, reason: String(describing: error))
        }
    }

    private struct FormatMarker: Decodable {
        struct Version: Decodable { let version: Int? }
        let format: String?
        let state: Version?
    }
    private struct Archive: Codable {
        let format: String
        let state: AuthState
    }
}
