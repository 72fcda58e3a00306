import Foundation
import GLibKit
import OpenIDConnect
internal import CSecret
import WebAuthSupport

/// Keeps an `AuthState` in the Secret Service (GNOME Keyring, KWallet's Secret Service API,
/// KeePassXC...): the Linux keychain, through libsecret. The item is found by the store's name
/// (schema `io.github.webauthsession.AuthState`); its secret is the same archive the file
/// store writes, so damaged or foreign content is refused the same way and never overwritten.
///
/// Every libsecret call is a blocking D-Bus round trip, made on a thread of its own: never on
/// one of Swift's cooperative threads, and without needing a GLib main loop (a command line tool
/// has none running).
public struct SecretServiceAuthStateStore: AuthStateStore {
    /// Why the keyring cannot take a new sign-in now, and what to do about it.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// No Secret Service answered on the session bus (`message` says why).
        case unreachable(message: String)
        /// The keyring has no default collection (no "login" keyring), so a new item has nowhere to go.
        case noDefaultCollection
        /// The default collection is locked.
        case locked(collection: String)

        public var description: String {
            switch self {
            case .unreachable(let message): "no Secret Service answers on the session bus (\(message))"
            case .noDefaultCollection: "the keyring has no default collection (no \"login\" keyring): create one with Seahorse or your desktop's keyring tool"
            case .locked(let collection): "the keyring's collection '\(collection)' is locked: unlock it (sign in to the desktop, or use Seahorse)"
            }
        }
    }

    /// The store's name (one item per name).
    public let name: String
    private var location: String { "Secret Service item '\(name)'" }

    /// A store named `name`.
    /// - Throws: `AuthStateStoreError.invalidName` for an empty name.
    public init(name: String) throws(AuthStateStoreError) {
        guard !name.isEmpty else { throw .invalidName(name) }
        self.name = name
    }

    /// Whether a Secret Service answers on the session bus. Unlike ``problem()``, it asks nothing
    /// of the default collection (only saving needs it), and the service it reaches is the one a
    /// later ``load()`` in this process reuses.
    public static var isAvailable: Bool {
        get async {
            await onOwnThread(named: "Secret Service call") { () -> Bool in
                var error: UnsafeMutablePointer<GError>?
                let answers = cws_service_answers(&error) != 0
                _ = message(taking: error)  // freed: saying why is problem()'s job
                return answers
            }
        }
    }

    /// Why a new sign-in could not be saved in the keyring now, or `nil` when it could: a Secret
    /// Service answers, and its default collection is there and unlocked.
    public static func problem() async -> Problem? {
        await onOwnThread(named: "Secret Service call") { () -> Problem? in
            var label: UnsafeMutablePointer<gchar>?
            var error: UnsafeMutablePointer<GError>?
            let state = cws_default_collection_state(&label, &error)
            defer { g_free(label) }
            switch state {
            case CWS_COLLECTION_USABLE: return nil
            case CWS_COLLECTION_MISSING: return .noDefaultCollection
            case CWS_COLLECTION_LOCKED: return .locked(collection: label.map { String(cString: $0) } ?? "default")
            default: return .unreachable(message: message(taking: error) ?? "no answer")
            }
        }
    }

    /// The names of the sign-ins saved in the keyring, sorted.
    /// - Throws: `AuthStateStoreError.io(path:message:)` when the Secret Service cannot be searched.
    public static func savedNames() async throws(AuthStateStoreError) -> [String] {
        try await onOwnThread(named: "Secret Service call") { () throws(AuthStateStoreError) -> [String] in
            var error: UnsafeMutablePointer<GError>?
            let list = cws_saved_store_names(&error)
            defer { g_strfreev(list) }
            if let message = message(taking: error) { throw .io(path: "the Secret Service", message: message) }
            var names: [String] = []
            while let list, let name = list[names.count] { names.append(String(cString: name)) }
            return names.sorted()
        }
    }

    public func load() async throws(AuthStateStoreError) -> AuthState? {
        let (name, location) = (name, location)
        let secret = try await onOwnThread(named: "Secret Service call") { () throws(AuthStateStoreError) -> String? in
            var error: UnsafeMutablePointer<GError>?
            let secret = cws_lookup_secret(name, &error)
            if let message = Self.message(taking: error) { throw .io(path: location, message: message) }
            guard let secret else { return nil }
            defer { secret_password_free(secret) }
            return String(cString: secret)
        }
        guard let secret else { return nil }
        return try AuthStateArchive.decode(Data(secret.utf8), location: location)
    }

    public func save(_ state: AuthState) async throws(AuthStateStoreError) {
        _ = try await load()  // refuses to overwrite what is not ours
        let (name, location) = (name, location)
        let archive = String(decoding: try AuthStateArchive.encode(state, location: location), as: UTF8.self)
        try await onOwnThread(named: "Secret Service call") { () throws(AuthStateStoreError) in
            let attributes = cws_store_attributes(name)
            defer { g_hash_table_unref(attributes) }
            var error: UnsafeMutablePointer<GError>?
            let stored = secret_password_storev_sync(cws_auth_state_schema(), attributes, SECRET_COLLECTION_DEFAULT,
                                                     "WebAuthSession sign-in (\(name))", archive, nil, &error)
            if let message = Self.message(taking: error) { throw .io(path: location, message: message) }
            if stored == 0 { throw .io(path: location, message: "the Secret Service did not store the item") }
        }
    }

    public func remove() async throws(AuthStateStoreError) {
        let (name, location) = (name, location)
        try await onOwnThread(named: "Secret Service call") { () throws(AuthStateStoreError) in
            let attributes = cws_store_attributes(name)
            defer { g_hash_table_unref(attributes) }
            var error: UnsafeMutablePointer<GError>?
            _ = secret_password_clearv_sync(cws_auth_state_schema(), attributes, nil, &error)
            if let message = Self.message(taking: error) { throw .io(path: location, message: message) }
        }
    }

    /// `error`'s message, freeing it; `nil` for no error.
    private static func message(taking error: UnsafeMutablePointer<GError>?) -> String? {
        GLibError.taking(error)?.message
    }
}

/// The store to use by default: when a Secret Service answers, the keyring with a file under
/// `$XDG_STATE_HOME` as the fallback that keeps a sign-in the keyring could not take (see
/// `FallbackAuthStateStore`); else that file.
/// - Parameters:
///   - name: the sign-in's name (a profile): the keyring item's attribute and the file's name.
///   - onFallback: told when a state went to the file because the keyring failed.
public func automaticAuthStateStore(
    name: String, onFallback: @escaping @Sendable (_ keyringError: AuthStateStoreError, _ file: URL) -> Void = { _, _ in }
) async throws(AuthStateStoreError) -> any AuthStateStore {
    try automaticAuthStateStore(name: name, keyringAnswers: await SecretServiceAuthStateStore.isAvailable, onFallback: onFallback)
}

/// The store ``automaticAuthStateStore(name:onFallback:)`` chooses when whether a Secret Service
/// answers is known already (`keyringAnswers`): a long-running program asks once, not at every
/// store it opens (each asking is a round trip on the session bus).
public func automaticAuthStateStore(
    name: String, keyringAnswers: Bool,
    onFallback: @escaping @Sendable (_ keyringError: AuthStateStoreError, _ file: URL) -> Void = { _, _ in }
) throws(AuthStateStoreError) -> any AuthStateStore {
    let file = try FileAuthStateStore(name: name)
    guard keyringAnswers else { return file }
    return FallbackAuthStateStore(primary: try SecretServiceAuthStateStore(name: name), fallback: file, onFallback: onFallback)
}
