import WebAuthBrokerContract
import WebAuthSession
internal import CGDBus

/// The broker's connection to the session bus, and the one gateway between its Swift code and
/// GDBus: the well-known name, exported objects, unicast signals, the bus daemon's answers about
/// callers, and its `NameOwnerChanged`. Every registration, subscription and call is made on
/// ``BusActor``, so GDBus calls back on the bus thread.
@BusActor
final class BusConnection {
    private let connection: GObjectReference<OpaquePointer>
    /// The parsed ``BrokerContract/interfaceXML`` (a `GDBusNodeInfo *`), kept for the process's life.
    private let node: UnsafeMutablePointer<GDBusNodeInfo>
    /// Objects exported, by registration ID.
    private var exports: Set<UInt32> = []

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`).
    /// - Throws: ``BrokerStartError/noSessionBus(_:)``.
    init() throws(BrokerStartError) {
        do throws(GLibError) {
            connection = GObjectReference(adopting: try GLibError.attempt { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }!)
            node = try GLibError.attempt { g_dbus_node_info_new_for_xml(BrokerContract.interfaceXML, $0) }!
        } catch {
            throw .noSessionBus(error.message)
        }
        // GDBus's default for the session bus raises SIGTERM when it closes, on the thread that sees it
        // close, which blocks SIGTERM (threads started from Swift's pool inherit a mask that does):
        // the signal stayed pending and the broker ran on without a bus. It leaves through
        // ``whenClosed(_:)`` instead.
        g_dbus_connection_set_exit_on_close(connection.pointer, 0)
    }

    /// Calls `handler` once the connection has closed: the bus daemon went away, or the
    /// connection broke. Nothing can reach the broker, or be answered by it, from then on.
    func whenClosed(_ handler: @escaping @BusActor @Sendable () -> Void) {
        BusClosedSignal.connect(connection.pointer) { Task { @BusActor in handler() } }
    }

    /// Takes `name`, or fails when another process has it (another broker of this session).
    /// - Throws: ``BrokerStartError/nameTaken(_:)``, ``BrokerStartError/noSessionBus(_:)``.
    func requestName(_ name: String) throws(BrokerStartError) {
        let doNotQueue: UInt32 = 4
        let reply: [BusValue]
        do { reply = try callBusDaemon("RequestName", [.string(name), .uint32(doNotQueue)]) } catch { throw .noSessionBus(error.message) }
        // 1: now the primary owner; 4: it already was.
        guard case .uint32(let answer)? = reply.first, answer == 1 || answer == 4 else { throw .nameTaken(name) }
    }

    /// Gives `name` back: calls already routed to this connection still arrive, new ones start
    /// another broker (D-Bus activation). Returns once the bus daemon has answered, so every call
    /// it routed here before has reached this connection.
    func releaseName(_ name: String) {
        _ = try? callBusDaemon("ReleaseName", [.string(name)])
    }

    /// Exports `interfaces` at `path`.
    /// - Returns: the registration IDs, for ``unexport(_:)``.
    /// - Throws: ``BrokerError`` (``BrokerErrorName/invalidArgument``) when something is exported there already.
    func export(_ interfaces: [ExportedInterface], at path: String) throws(BrokerError) -> [UInt32] {
        var ids: [UInt32] = []
        for interface in interfaces {
            let info = g_dbus_node_info_lookup_interface(node, interface.name)
            var vtable = GDBusInterfaceVTable(method_call: Self.methodCall, get_property: Self.getProperty, set_property: nil,
                                              padding: (nil, nil, nil, nil, nil, nil, nil, nil))
            do throws(GLibError) {
                let id = try GLibError.attempt { error in
                    g_dbus_connection_register_object(connection.pointer, path, info, &vtable, RetainedValue.retained(interface),
                                                      RetainedBox.destroyNotify, error)
                }
                ids.append(id)
                exports.insert(id)
            } catch {
                unexport(ids)
                throw .invalidArgument("\(path) is in use: \(error.message)")
            }
        }
        return ids
    }

    /// Stops exporting the objects of `ids`.
    func unexport(_ ids: [UInt32]) {
        for id in ids where exports.remove(id) != nil {
            g_dbus_connection_unregister_object(connection.pointer, id)
        }
    }

    /// Sends `signal` of `interface` from `path` to `destination` only: a unicast signal, which the
    /// bus delivers to that connection and to no other, whatever they subscribed to.
    func emit(_ signal: String, of interface: String, from path: String, to destination: String, _ arguments: [BusValue]) {
        _ = try? GLibError.attempt { error in
            g_dbus_connection_emit_signal(connection.pointer, destination, path, interface, signal, BusValue.newTuple(arguments), error)
        }
    }

    /// The bus daemon's credentials of `sender`: its process ID and user ID
    /// (`org.freedesktop.DBus.GetConnectionCredentials`).
    func credentials(of sender: String) async throws(BrokerError) -> CallerCredentials {
        let reply: [BusValue]
        do { reply = try await callBusDaemonAsync("GetConnectionCredentials", [.string(sender)]) } catch {
            throw BrokerError(.failed, "the bus did not say who the caller is: \(error.message)")
        }
        guard case .dictionary(let credentials)? = reply.first, case .uint32(let pid)? = credentials["ProcessID"],
              case .uint32(let uid)? = credentials["UnixUserID"] else {
            throw BrokerError(.failed, "the bus did not give the caller's process and user")
        }
        return CallerCredentials(processID: pid_t(bitPattern: pid), userID: uid_t(uid))
    }

    /// Calls `handler` with every name that loses its owner (`NameOwnerChanged` with an empty new
    /// owner): a caller that disconnected, or crashed.
    func watchVanishingNames(_ handler: @escaping @BusActor @Sendable (String) -> Void) {
        _ = g_dbus_connection_signal_subscribe(connection.pointer, "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged",
                                               "/org/freedesktop/DBus", nil, G_DBUS_SIGNAL_FLAGS_NONE, Self.nameOwnerChanged,
                                               RetainedValue.retained(handler), RetainedBox.destroyNotify)
    }

    /// A blocking call to the bus daemon (at start and at exit only, when nothing else waits).
    private func callBusDaemon(_ method: String, _ arguments: [BusValue]) throws(GLibError) -> [BusValue] {
        let reply = try GLibError.attempt { error in
            g_dbus_connection_call_sync(connection.pointer, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method,
                                        BusValue.newTuple(arguments), nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, error)
        }
        guard let reply else { return [] }
        defer { g_variant_unref(reply) }
        return BusValue.values(ofTuple: reply)
    }

    /// A call to the bus daemon whose answer comes back on the bus thread.
    private func callBusDaemonAsync(_ method: String, _ arguments: [BusValue]) async throws(GLibError) -> [BusValue] {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<[BusValue], GLibError>, Never>) in
            g_dbus_connection_call(connection.pointer, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method,
                                   BusValue.newTuple(arguments), nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, Self.callFinished,
                                   RetainedValue.retained(continuation))
        }
        return try outcome.get()
    }

    private static let callFinished: GAsyncReadyCallback = { source, result, data in
        guard let continuation = RetainedValue<CheckedContinuation<Result<[BusValue], GLibError>, Never>>.take(data) else { return }
        do throws(GLibError) {
            let reply = try GLibError.attempt { g_dbus_connection_call_finish(OpaquePointer(source), result, $0) }
            defer { if let reply { g_variant_unref(reply) } }
            continuation.resume(returning: .success(reply.map(BusValue.values(ofTuple:)) ?? []))
        } catch {
            continuation.resume(returning: .failure(error))
        }
    }

    private static let methodCall: GDBusInterfaceMethodCallFunc = { _, sender, path, _, method, parameters, invocation, data in
        guard let interface = RetainedValue<ExportedInterface>.borrow(data), let invocation, let parameters else { return }
        let (sender, path, method) = (sender.map { String(cString: $0) } ?? "", String(cString: path!), String(cString: method!))
        let call = IncomingCall(sender: sender, objectPath: path, method: method, parameters: parameters, invocation: invocation)
        BusActor.assumeIsolated { interface.call(call) }
    }

    private static let getProperty: GDBusInterfaceGetPropertyFunc = { _, _, _, _, name, _, data in
        guard let interface = RetainedValue<ExportedInterface>.borrow(data), let name else { return nil }
        let property = String(cString: name)
        let value = BusActor.assumeIsolated { interface.property(property) }
        return value?.newVariant()
    }

    private static let nameOwnerChanged: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
        guard let handler = RetainedValue<@BusActor @Sendable (String) -> Void>.borrow(data), let parameters else { return }
        let values = BusValue.values(ofTuple: parameters)
        guard values.count == 3, case .string(let name) = values[0], case .string("") = values[2] else { return }
        BusActor.assumeIsolated { handler(name) }
    }
}
