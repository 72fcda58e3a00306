internal import CGDBus
import GLibLifetimes

/// A client's own connection to the session bus where a broker may run, and its method calls,
/// which never start a broker (`G_DBUS_CALL_FLAGS_NO_AUTO_START`): a name without an owner
/// answers at once. What ``BrokerTokenCall`` and ``BrokerSignInCall`` share.
final class BrokerClientConnection {
    /// How a call ended.
    enum Outcome {
        /// The reply's arguments.
        case reply([BusValue])
        /// An error of the contract, with its one-line message.
        case refused(BrokerErrorName, message: String)
        /// No reply within the time given.
        case timedOut
        /// No broker answered: none on the bus, one that left or does not know the call, or a reply that is not the contract's.
        case noBroker
    }

    /// The `GDBusConnection *`.
    let connection: GObjectReference<OpaquePointer>

    /// A new connection to the session bus `environment` names (``SessionBus``); `nil` when there is none to reach.
    init?(environment: [String: String]) {
        guard let address = SessionBus.address(environment) else { return nil }
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let opened = try? GLibError.attempt({ g_dbus_connection_new_for_address_sync(address, flags, nil, nil, $0) }) else { return nil }
        connection = GObjectReference(adopting: opened)
    }

    /// The connection's unique name on the bus (`:1.42`).
    var uniqueName: String {
        connection.withPointer { String(cString: g_dbus_connection_get_unique_name($0)) }
    }

    /// Calls `method` of `interface` at `path` on the broker with `arguments` (a tuple), waiting at most `timeoutMilliseconds`.
    func call(_ method: String, _ arguments: [BusValue], interface: String = BrokerContract.interface, path: String = BrokerContract.objectPath,
              timeoutMilliseconds: Int32) -> Outcome {
        reply(method, arguments, interface: interface, path: path, timeoutMilliseconds: timeoutMilliseconds) { .reply(BusValue.values(ofTuple: $0)) }
    }

    /// The broker's property `name` (`org.freedesktop.DBus.Properties.Get`): `.reply([value])`.
    func property(_ name: String, timeoutMilliseconds: Int32) -> Outcome {
        reply("Get", [.string(BrokerContract.interface), .string(name)], interface: "org.freedesktop.DBus.Properties", path: BrokerContract.objectPath,
              timeoutMilliseconds: timeoutMilliseconds) { reply in
            // `(v)`: the value is inside the variant.
            guard let boxed = g_variant_get_child_value(reply, 0) else { return .noBroker }
            defer { g_variant_unref(boxed) }
            guard let value = g_variant_get_variant(boxed) else { return .noBroker }
            defer { g_variant_unref(value) }
            return .reply([BusValue(variant: value)])
        }
    }

    /// Calls `method` and reads its reply (a tuple, not consumed) with `read`.
    private func reply(_ method: String, _ arguments: [BusValue], interface: String, path: String, timeoutMilliseconds: Int32,
                       read: (OpaquePointer) -> Outcome) -> Outcome {
        var error: UnsafeMutablePointer<GError>?
        let reply = connection.withPointer { connection in
            g_dbus_connection_call_sync(connection, BrokerContract.busName, path, interface, method,
                                        BusValue.newTuple(arguments), nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, max(timeoutMilliseconds, 1), nil, &error)
        }
        if let error { return Self.failure(error) }
        guard let reply else { return .noBroker }
        defer { g_variant_unref(reply) }
        return read(reply)
    }

    /// What `error` (freed here) says.
    private static func failure(_ error: UnsafeMutablePointer<GError>) -> Outcome {
        let remote = g_dbus_error_get_remote_error(error).map { name in
            defer { g_free(name) }
            return String(cString: name)
        }
        g_dbus_error_strip_remote_error(error)
        guard let failure = GLibError.taking(error) else { return .noBroker }
        guard let remote else { return failure.matches(g_io_error_quark(), Int(G_IO_ERROR_TIMED_OUT.rawValue)) ? .timedOut : .noBroker }
        guard let name = BrokerErrorName(rawValue: remote) else { return .noBroker }
        return .refused(name, message: failure.message)
    }
}
