import Foundation
import OpenIDConnect
import WebAuthBrokerContract
import WebAuthExitStatus
import GLibKit
internal import CGDBus

/// `webauth`'s own side of the broker: `GetToken` of the broker running on the session bus, so a
/// command that only needs a token neither probes the keyring nor reads a store while one runs. It never
/// starts a broker (`G_DBUS_CALL_FLAGS_NO_AUTO_START`): with none running, or one that cannot serve
/// the request, the command reads the saved sign-in itself, as it does without a broker.
public enum BrokerTokenClient {
    /// `options`' token from the running broker, asked once with `NO_AUTO_START`: a name without
    /// an owner answers at once, so one round trip tells both whether a broker runs and its token.
    /// - Parameters:
    ///   - environment: where the session bus is: `DBUS_SESSION_BUS_ADDRESS`, else
    ///     `$XDG_RUNTIME_DIR/bus` when that socket exists; never a bus started for the occasion
    ///     (GDBus's autolaunch).
    ///   - timeout: how long the broker may take (its refresh included).
    /// - Returns: the token; `nil` when no broker can answer: no session bus, no broker on it, a
    ///   broker that cannot serve the request (`Failed`, `AccessDenied`: the caller reads the
    ///   store itself then, and says what it finds), that leaves without answering, or that does
    ///   not know the call.
    /// - Throws: the broker's answer as the command reports it (`NotSignedIn` is
    ///   ``ExitStatus/signInRequired``, `ProviderError` ``ExitStatus/providerError``…: each error
    ///   name is its exit status); ``ExitStatus/timedOut`` when no answer came within `timeout`.
    public static func token(_ options: TokenOptions, environment: [String: String], timeout: Duration) throws(ReportedFailure) -> AccessToken? {
        guard let address = sessionBusAddress(environment) else { return nil }
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let opened = try? GLibError.attempt({ g_dbus_connection_new_for_address_sync(address, flags, nil, nil, $0) }) else { return nil }
        let connection = GObjectReference(adopting: opened)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var error: UnsafeMutablePointer<GError>?
        let reply = connection.withPointer { connection in
            g_dbus_connection_call_sync(connection, BrokerContract.busName, BrokerContract.objectPath, BrokerContract.interface, "GetToken",
                                        BusValue.newTuple([.dictionary(options.busOptions)]), nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, max(milliseconds, 1), nil,
                                        &error)
        }
        if let error {
            try failure(error)
            return nil
        }
        guard let reply else { return nil }
        defer { g_variant_unref(reply) }
        guard case .dictionary(let results)? = BusValue.values(ofTuple: reply).first else { return nil }
        return BrokerResults.accessToken(in: results)
    }

    /// Throws what `error` (freed here) says when it is the broker's real answer, or no answer in
    /// time; returns for what means that this broker cannot serve the request.
    private static func failure(_ error: UnsafeMutablePointer<GError>) throws(ReportedFailure) {
        let remote = g_dbus_error_get_remote_error(error).map { name in
            defer { g_free(name) }
            return String(cString: name)
        }
        g_dbus_error_strip_remote_error(error)
        guard let failure = GLibError.taking(error) else { return }
        if remote == nil, failure.matches(g_io_error_quark(), Int(G_IO_ERROR_TIMED_OUT.rawValue)) {
            throw ReportedFailure(.timedOut, "the sign-in broker gave no token in time")
        }
        guard let name = remote.flatMap(BrokerErrorName.init(rawValue:)), name != .failed, name != .accessDenied else { return }
        throw ReportedFailure(ExitStatus(rawValue: Int32(name.exitStatus)) ?? .localFailure, failure.message)
    }

    /// The session bus's address in `environment`, when there is a bus to reach.
    private static func sessionBusAddress(_ environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        let socket = runtime + "/bus"
        var status = stat()
        guard stat(socket, &status) == 0, (status.st_mode & S_IFMT) == S_IFSOCK else { return nil }
        return "unix:path=" + socket
    }
}
