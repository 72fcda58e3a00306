import WebAuthBrokerContract

/// What the broker answers on one interface of one object: its method calls and its properties.
struct ExportedInterface: Sendable {
    /// The interface's name, as in ``BrokerContract/interfaceXML``.
    let name: String
    /// Answers a method call (now or later, but exactly once).
    let call: @BusActor @Sendable (IncomingCall) -> Void
    /// The value of a property, `nil` for one the interface does not have.
    let property: @BusActor @Sendable (String) -> BusValue?

    init(name: String, call: @escaping @BusActor @Sendable (IncomingCall) -> Void,
         property: @escaping @BusActor @Sendable (String) -> BusValue? = { _ in nil }) {
        self.name = name
        self.call = call
        self.property = property
    }
}
