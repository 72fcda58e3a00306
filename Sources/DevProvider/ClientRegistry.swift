import Foundation
import OpenIDConnect
import WebAuthSupport

/// The clients the development provider knows: the configured ones, and those registered through
/// ``RegistrationEndpoint``, which alone adds and removes them.
final class ClientRegistry: Sendable {
    /// A client registered through `POST /register`.
    struct Registration: Sendable {
        var client: DevProviderConfiguration.Client
        let secretExpiresAt: Date?
        let registrationAccessToken: String
        let issuedAt: Date
    }

    private let configured: [DevProviderConfiguration.Client]
    /// Registered clients by client ID. Not a `Mutex`: see ``LockedState`` (server threads).
    private let registered = LockedState<[String: Registration]>([:])

    init(configured: [DevProviderConfiguration.Client]) {
        self.configured = configured
    }

    /// The configured or registered client `clientID`.
    func client(_ clientID: String?) -> DevProviderConfiguration.Client? {
        configured.first { $0.clientID == clientID } ?? clientID.flatMap { id in registered.withLock { $0[id]?.client } }
    }

    /// Whether `clientID` is a registered client whose secret has expired.
    func secretExpired(_ clientID: String) -> Bool {
        registered.withLock { $0[clientID]?.secretExpiresAt.map { $0 <= Date() } ?? false }
    }

    /// The registration of `clientID`, if it was registered.
    func registration(of clientID: String) -> Registration? { registered.withLock { $0[clientID] } }

    /// Adds a registered client.
    func add(_ registration: Registration) { registered.withLock { $0[registration.client.clientID] = registration } }

    /// Removes a registered client.
    func remove(_ clientID: String) { registered.withLock { $0[clientID] = nil } }
}
