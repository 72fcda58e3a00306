import BrokerWire
internal import CGDBus
import Foundation
import GLibLifetimes

/// The keyring's copy of a saved sign-in: the Secret Service item the keyring store writes (schema
/// `io.github.webauthsession.AuthState`, attribute `store`, as CShims/CSecret's `cws_auth_state_schema`
/// names them), read through libsecret, which the shortcut loads only when it reads there: `webauth`
/// starts without it. The same calls as the keyring store's read (`cws_service_answers`, then
/// `cws_lookup_secret`): libsecret's shared service, an encrypted session, one lookup.
enum KeyringItem {
    /// The item's text for `profile`; `nil` when there is no session bus to reach (`environment`
    /// says where it is), no Secret Service answers, it holds no such item, libsecret cannot be
    /// loaded, or any call fails (`webauth-tokens` then reads it, and says why).
    static func archive(of profile: String, environment: [String: String]) -> Data? {
        guard SessionBus.address(environment) != nil, let secret = Libsecret.load() else { return nil }
        // Whether anyone answers: a proxy comes back whether or not the name has an owner.
        guard let probe = try? GLibError.attempt({ secret.serviceGet(0, nil, $0) }) else { return nil }
        let owner = GObjectReference(adopting: probe).withPointer { g_dbus_proxy_get_name_owner(UnsafeMutablePointer<GDBusProxy>($0)) }
        guard let owner else { return nil }
        g_free(owner)
        guard let opened = try? GLibError.attempt({ secret.serviceGet(openSession, nil, $0) }) else { return nil }
        let service = GObjectReference(adopting: opened)
        let types = g_hash_table_new(g_str_hash, g_str_equal)
        let attributes = g_hash_table_new(g_str_hash, g_str_equal)
        defer {
            g_hash_table_unref(types)
            g_hash_table_unref(attributes)
        }
        return "store".withCString { attribute in
            profile.withCString { name in
                g_hash_table_insert(types, UnsafeMutableRawPointer(mutating: attribute), nil)  // SECRET_SCHEMA_ATTRIBUTE_STRING (0)
                g_hash_table_insert(attributes, UnsafeMutableRawPointer(mutating: attribute), UnsafeMutableRawPointer(mutating: name))
                guard let schema = secret.schemaNew("io.github.webauthsession.AuthState", 0, types) else { return nil }
                defer { secret.schemaUnref(schema) }
                let found = try? service.withPointer { service in
                    try GLibError.attempt { secret.serviceLookup(service, schema, attributes, nil, $0) }
                }
                guard let value = found ?? nil else { return nil }
                var length: UInt = 0
                guard let password = secret.valueToPassword(value, &length) else { return nil }
                defer { secret.passwordFree(password) }
                return Data(bytes: password, count: Int(length))
            }
        }
    }

    /// `SECRET_SERVICE_OPEN_SESSION`: the service with its encrypted session open.
    private static let openSession: Int32 = 1 << 1

    /// The libsecret functions the read calls, looked up in the library loaded for it.
    private struct Libsecret {
        typealias ServiceGet = @convention(c) (Int32, OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> OpaquePointer?
        typealias SchemaNew = @convention(c) (UnsafePointer<CChar>, Int32, OpaquePointer?) -> OpaquePointer?
        typealias SchemaUnref = @convention(c) (OpaquePointer) -> Void
        typealias ServiceLookup = @convention(c) (OpaquePointer, OpaquePointer, OpaquePointer?, OpaquePointer?,
                                                  UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> OpaquePointer?
        typealias ValueToPassword = @convention(c) (OpaquePointer, UnsafeMutablePointer<UInt>) -> UnsafeMutablePointer<CChar>?
        typealias PasswordFree = @convention(c) (UnsafeMutablePointer<CChar>) -> Void

        let serviceGet: ServiceGet
        let schemaNew: SchemaNew
        let schemaUnref: SchemaUnref
        let serviceLookup: ServiceLookup
        let valueToPassword: ValueToPassword
        let passwordFree: PasswordFree

        /// libsecret's functions, or `nil` when the library or one of them is missing.
        static func load() -> Libsecret? {
            guard let library = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL) else { return nil }
            func symbol<T>(_ name: String, _ type: T.Type) -> T? { dlsym(library, name).map { unsafeBitCast($0, to: type) } }
            guard let serviceGet = symbol("secret_service_get_sync", ServiceGet.self),
                  let schemaNew = symbol("secret_schema_newv", SchemaNew.self),
                  let schemaUnref = symbol("secret_schema_unref", SchemaUnref.self),
                  let serviceLookup = symbol("secret_service_lookup_sync", ServiceLookup.self),
                  let valueToPassword = symbol("secret_value_unref_to_password", ValueToPassword.self),
                  let passwordFree = symbol("secret_password_free", PasswordFree.self) else { return nil }
            return Libsecret(serviceGet: serviceGet, schemaNew: schemaNew, schemaUnref: schemaUnref, serviceLookup: serviceLookup,
                             valueToPassword: valueToPassword, passwordFree: passwordFree)
        }
    }
}
