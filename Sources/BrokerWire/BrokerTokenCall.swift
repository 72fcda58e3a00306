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
        guard let connection = BrokerClientConnection(environment: environment) else { return .noBroker }
        switch connection.call("GetToken", [.dictionary(options)], timeoutMilliseconds: timeoutMilliseconds) {
        case .reply(let values):
            guard case .dictionary(let results)? = values.first else { return .noBroker }
            return .results(results)
        case .refused(let name, let message): return .refused(name, message: message)
        case .timedOut: return .timedOut
        case .noBroker: return .noBroker
        }
    }
}
