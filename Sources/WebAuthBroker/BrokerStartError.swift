/// Why the broker cannot start.
public enum BrokerStartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No session bus answers (`DBUS_SESSION_BUS_ADDRESS`), or it refused the broker.
    case noSessionBus(String)
    /// Another process owns the broker's name: a broker already runs in this session.
    case nameTaken(String)

    public var description: String {
        switch self {
        case .noSessionBus(let message): "no session bus to serve on: \(message)"
        case .nameTaken(let name): "another broker already runs in this session (it owns \(name))"
        }
    }
}
