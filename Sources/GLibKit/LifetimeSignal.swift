package import CSoup

/// A signal handler for the whole life of a short-lived object (a libsoup message on the network
/// thread), connected from any thread and never disconnected by hand: GLib drops it with the
/// object and then releases its user data. Its target is held weakly, as ``SignalConnection``'s is.
package enum LifetimeSignal {
    /// Connects `handler`; it finds `target` with ``WeakTarget/from(_:)``.
    package static func connect<Instance, Handler, Target: AnyObject>(_ instance: Instance, _ signal: GObjectSignal<Instance, Handler>,
                                                              target: Target, handler: Handler) {
        _ = signal.connect(instance, handler, RetainedValue.retained(WeakTarget(target)), RetainedBox.closureNotify)
    }
}
