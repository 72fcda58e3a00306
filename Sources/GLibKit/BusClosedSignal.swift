package import CSoup

/// `GDBusConnection::closed`, for the broker (which holds its connection as an opaque pointer
/// and lives on its own bus thread, not on ``WebKitActor``): connected once for the
/// connection's whole life and never disconnected by hand, like ``LifetimeSignal``. GLib drops
/// the handler with the connection and then releases the closure.
package enum BusClosedSignal {
    /// Calls `handler` on the connection's thread when `connection` (a `GDBusConnection *`) closes.
    package static func connect(_ connection: OpaquePointer, _ handler: @escaping @Sendable () -> Void) {
        _ = cwk_connect_bus_closed(UnsafeMutableRawPointer(connection), { _, _, _, data in
            RetainedValue<@Sendable () -> Void>.borrow(data)?()
        }, RetainedValue.retained(handler), RetainedBox.closureNotify)
    }
}
