internal import CGDBus
import GLibLifetimes

/// One `GetToken` of the broker running on the session bus, with nothing but GIO: what both
/// `webauth`'s shortcut and its token commands (``BrokerTokenCall/ask(_:environment:timeoutMilliseconds:)``'s
/// callers) send and read. It never starts a broker (`G_DBUS_CALL_FLAGS_NO_AUTO_START`): a name without
/// an owner answers at once, so one round trip tells both whether a broker runs and its token.
public enum BrokerTokenCall {
    /// What the broker said.
    public enum Answer: Sendable, Equatable {
        /// Its `results`: the token, as `BrokerResults` writes it.
        case results([String: BusValue])
        /// An error of the contract, with its one-line message.
        case refused(BrokerErrorName, message: String)
        /// No answer within the time given.
        case timedOut
        /// No broker to ask: no session bus, no broker on it, one that left without answering or
        /// does not know the call, an answer that is not the contract's.
        case noBroker
    }

    /// Asks for the token `options` (`GetToken`'s `a{sv}`) describe, waiting at most `timeoutMilliseconds`.
    /// - Parameter environment: where the session bus is: `DBUS_SESSION_BUS_ADDRESS`, else
    ///   `$XDG_RUNTIME_DIR/bus` when that socket exists; never a bus started for the occasion (GDBus's autolaunch).
    public static func ask(_ options: [String: BusValue], environment: [String: String], timeoutMilliseconds: Int32) -> Answer {
        guard let address = SessionBus.address(environment) else { return .noBroker }
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let opened = try? GLibError.attempt({ g_dbus_connection_new_for_address_sync(address, flags, nil, nil, $0) }) else { return .noBroker }
        let connection = GObjectReference(adopting: opened)
        var error: UnsafeMutablePointer<GError>?
        let reply = connection.withPointer { connection in
            g_dbus_connection_call_sync(connection, BrokerContract.busName, BrokerContract.objectPath, BrokerContract.interface, "GetToken",
                                        BusValue.newTuple([.dictionary(options)]), nil, G_DBUS_CALL_FLAGS_NO_AUTO_START,
                                        max(timeoutMilliseconds, 1), nil, &error)
        }
        if let error { return failure(error) }
        guard let reply else { return .noBroker }
        defer { g_variant_unref(reply) }
        guard case .dictionary(let results)? = BusValue.values(ofTuple: reply).first else { return .noBroker }
        return .results(results)
    }

    /// What `error` (freed here) says.
    private static func failure(_ error: UnsafeMutablePointer<GError>) -> Answer {
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
