/// A failure a caller receives: a D-Bus error of the contract (``BrokerErrorName``) and its
/// one-line message, which never holds a token, code or secret.
public struct BrokerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name.
    public let name: BrokerErrorName
    /// What happened, in one line.
    public let message: String

    /// A failure named `name` saying `message`.
    public init(_ name: BrokerErrorName, _ message: String) {
        self.name = name
        self.message = message
    }

    /// An argument or option that cannot be used.
    public static func invalidArgument(_ message: String) -> BrokerError { BrokerError(.invalidArgument, message) }

    public var description: String { "\(name.rawValue): \(message)" }
}
