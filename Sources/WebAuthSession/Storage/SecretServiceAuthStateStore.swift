import Foundation
import OpenIDConnect
internal import CSecret

/// Keeps an `AuthState` in the Secret Service (GNOME Keyring, KWallet's Secret Service API,
/// KeePassXC...): the Linux keychain, through libsecret. The item is found by the store's name
/// (schema `io.github.webauthsession.AuthState`); its secret is the same archive the file
/// store writes, so damaged or foreign content is refused the same way and never overwritten.
public struct SecretServiceAuthStateStore: AuthStateStore {
    /// The store's name (one item per name).
    public let name: String
    private var location: String { "Secret Service item '\(name)'" }

    /// A store named `name`.
    /// - Throws: `AuthStateStoreError.invalidName` for an empty name.
    public init(name: String) throws(AuthStateStoreError) {
        guard !name.isEmpty else { throw .invalidName(name) }
        self.name = name
    }

    /// Whether a Secret Service answers on the session bus.
    public static var isAvailable: Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let service = secret_service_get_sync(SECRET_SERVICE_NONE, nil, &error) else {
            if let error { g_error_free(error) }
            return false
        }
        g_object_unref(UnsafeMutableRawPointer(service))
        return true
    }

    public func load() throws(AuthStateStoreError) -> AuthState? {
        let attributes = cws_store_attributes(name)
        defer { g_hash_table_unref(attributes) }
        var error: UnsafeMutablePointer<GError>?
        let secret = secret_password_lookupv_sync(cws_auth_state_schema(), attributes, nil, &error)
        if let error { throw failure(error) }
        guard let secret else { return nil }
        defer { secret_password_free(secret) }
        return try AuthStateArchive.decode(Data(String(cString: secret).utf8), location: location)
    }

    public func save(_ state: AuthState) throws(AuthStateStoreError) {
        _ = try load()  // refuses to overwrite what is not ours
        let archive = String(decoding: try AuthStateArchive.encode(state, location: location), as: UTF8.self)
        let attributes = cws_store_attributes(name)
        defer { g_hash_table_unref(attributes) }
        var error: UnsafeMutablePointer<GError>?
        let stored = secret_password_storev_sync(cws_auth_state_schema(), attributes, SECRET_COLLECTION_DEFAULT,
                                                 "WebAuthSession sign-in (\(name))", archive, nil, &error)
        if let error { throw failure(error) }
        if stored == 0 { throw .io(path: location, message: "the Secret Service did not store the item") }
    }

    public func remove() throws(AuthStateStoreError) {
        let attributes = cws_store_attributes(name)
        defer { g_hash_table_unref(attributes) }
        var error: UnsafeMutablePointer<GError>?
        _ = secret_password_clearv_sync(cws_auth_state_schema(), attributes, nil, &error)
        if let error { throw failure(error) }
    }

    private func failure(_ error: UnsafeMutablePointer<GError>) -> AuthStateStoreError {
        defer { g_error_free(error) }
        return .io(path: location, message: String(cString: error.pointee.message))
    }
}

/// The store to use by default: the Secret Service when one answers, else a file under
/// `$XDG_STATE_HOME`.
public func automaticAuthStateStore(name: String) throws(AuthStateStoreError) -> any AuthStateStore {
    SecretServiceAuthStateStore.isAvailable ? try SecretServiceAuthStateStore(name: name) : try FileAuthStateStore(name: name)
}
