import Foundation
import OpenIDConnect
import WebAuthBrokerContract
import WebAuthExitStatus

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
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        switch BrokerTokenCall.ask(options.busOptions, environment: environment, timeoutMilliseconds: milliseconds) {
        case .results(let results): return BrokerResults.accessToken(in: results)
        case .noBroker, .refused(.failed, _), .refused(.accessDenied, _): return nil
        case .refused(let name, let message): throw ReportedFailure(ExitStatus(rawValue: Int32(name.exitStatus)) ?? .localFailure, message)
        case .timedOut: throw ReportedFailure(.timedOut, "the sign-in broker gave no token in time")
        }
    }
}
