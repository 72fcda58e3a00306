package import CGDBus

/// A Swift value handed to C as user data (a signal handler's, an async call's, a weak
/// reference's, a server handler's; the broker's D-Bus objects, subscriptions and calls). The box is retained once when it is handed over and released
/// once: by GLib's destroy notify, or by the one callback that takes it back. This file is the only
/// place `Unmanaged` appears.
package class RetainedBox {
    /// A `GDestroyNotify` that releases the box it is given.
    package static let destroyNotify: GDestroyNotify = { data in RetainedBox.release(data) }

    /// A `GClosureNotify` (a signal handler's destroy notify) that releases the box it is given.
    package static let closureNotify: GClosureNotify = { data, _ in RetainedBox.release(data) }

    /// Releases the box at `data`: the balance of ``RetainedValue/retained(_:)``.
    package static func release(_ data: UnsafeMutableRawPointer?) {
        guard let data else { return }
        Unmanaged<RetainedBox>.fromOpaque(data).release()
    }
}

/// A ``RetainedBox`` holding one value of a known type.
package final class RetainedValue<Value>: RetainedBox {
    package let value: Value

    private init(_ value: Value) {
        self.value = value
    }

    /// `value` in a new box, retained once: user data for C.
    package static func retained(_ value: Value) -> UnsafeMutableRawPointer {
        Unmanaged<RetainedBox>.passRetained(RetainedValue(value)).toOpaque()
    }

    /// The value of the box at `data`, which stays retained (a handler that runs many times).
    package static func borrow(_ data: UnsafeMutableRawPointer?) -> Value? {
        data.map { unsafeDowncast(Unmanaged<RetainedBox>.fromOpaque($0).takeUnretainedValue(), to: RetainedValue.self).value }
    }

    /// The value of the box at `data`, released now (a callback that runs once).
    package static func take(_ data: UnsafeMutableRawPointer?) -> Value? {
        data.map { unsafeDowncast(Unmanaged<RetainedBox>.fromOpaque($0).takeRetainedValue(), to: RetainedValue.self).value }
    }
}
