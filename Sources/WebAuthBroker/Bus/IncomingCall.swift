import WebAuthBrokerContract
import WebAuthSession
internal import CGDBus

/// A method call from a caller, answered exactly once: with values, or with a
/// ``BrokerError``. GDBus hands the handler the invocation's reference and each answer consumes
/// it; the call keeps one of its own, so it may be answered later, from any task on ``BusActor``.
@BusActor
final class IncomingCall {
    /// The caller's unique name (`:1.42`).
    let sender: String
    /// The object the call is for.
    let objectPath: String
    /// The method called.
    let method: String
    /// The call's arguments, read from its parameter tuple.
    let arguments: [BusValue]
    // nonisolated(unsafe): set once, by the init on the bus thread; read only by `reply` and `fail`,
    // which run on ``BusActor``, that is on the same thread.
    private nonisolated(unsafe) let invocation: GObjectReference<OpaquePointer>
    private var answered = false

    /// A call GDBus delivered with `invocation` and `parameters` (a tuple, not consumed): made in
    /// GDBus's callback, on the bus thread, before it hands the call to ``BusActor`` code.
    nonisolated init(sender: String, objectPath: String, method: String, parameters: OpaquePointer, invocation: OpaquePointer) {
        self.sender = sender
        self.objectPath = objectPath
        self.method = method
        arguments = BusValue.values(ofTuple: parameters)
        self.invocation = GObjectReference(retaining: invocation)
    }

    /// The argument at `index` as a string (the parameter tuple's type is checked by GDBus).
    func string(_ index: Int) -> String {
        guard arguments.indices.contains(index), case .string(let text) = arguments[index] else { return "" }
        return text
    }

    /// The argument at `index` as an `a{sv}`.
    func options(_ index: Int) -> [String: BusValue] {
        guard arguments.indices.contains(index), case .dictionary(let map) = arguments[index] else { return [:] }
        return map
    }

    /// A copy of the file descriptor the call carries at `index` (an `h` option's value); the
    /// caller of this method closes it.
    /// - Throws: ``BrokerErrorName/invalidArgument`` when the call carries none there.
    func fileDescriptor(at index: Int32) throws(BrokerError) -> Int32 {
        let message = g_dbus_method_invocation_get_message(invocation.pointer)
        guard let list = g_dbus_message_get_unix_fd_list(message), index < g_unix_fd_list_get_length(list) else {
            throw .invalidArgument("the call carries no file descriptor \(index)")
        }
        do throws(GLibError) { return try GLibError.attempt { g_unix_fd_list_get(list, index, $0) } } catch {
            throw BrokerError(.failed, "the file descriptor could not be copied: \(error.message)")
        }
    }

    /// Answers with `values` (the method's out arguments, in order).
    func reply(_ values: [BusValue]) {
        guard !answered else { return }
        answered = true
        g_dbus_method_invocation_return_value(invocation.pointer, BusValue.newTuple(values))
    }

    /// Answers with the D-Bus error `error`.
    func fail(_ error: BrokerError) {
        guard !answered else { return }
        answered = true
        g_dbus_method_invocation_return_dbus_error(invocation.pointer, error.name.rawValue, error.message)
    }
}
