internal import CWebKitGTK

/// One signal handler on one GObject. Connected by `init`; disconnected by ``disconnect()`` or
/// when this is released; never touched again once its object is finalized (a weak reference
/// says so). Its user data is retained for the connection and released by GLib's destroy notify,
/// whenever the handler goes: disconnected here, or with its object.
@WebKitActor
final class SignalConnection {
    private let handlerID: gulong
    private var watch: FinalizationWatch?

    /// Connects `handler`; it finds `target` (held weakly) with ``WeakTarget/from(_:)``.
    convenience init<Instance, Handler, Target: AnyObject>(_ instance: Instance, _ signal: GObjectSignal<Instance, Handler>,
                                                           target: Target, handler: Handler) {
        self.init(instance, signal, handler: handler, userData: RetainedValue.retained(WeakTarget(target)))
    }

    /// Connects `handler`, which needs no user data.
    convenience init<Instance, Handler>(_ instance: Instance, _ signal: GObjectSignal<Instance, Handler>, handler: Handler) {
        self.init(instance, signal, handler: handler, userData: nil)
    }

    private init<Instance, Handler>(_ instance: Instance, _ signal: GObjectSignal<Instance, Handler>, handler: Handler,
                                    userData: UnsafeMutableRawPointer?) {
        handlerID = signal.connect(instance, handler, userData, userData == nil ? nil : RetainedBox.closureNotify)
        watch = FinalizationWatch(instance)
    }

    isolated deinit {
        disconnect()
    }

    /// Disconnects the handler now; idempotent. A handler its object's teardown already removed
    /// (a destroyed widget drops all of them) is left alone.
    func disconnect() {
        guard let instance = watch?.object else { return }
        if g_signal_handler_is_connected(instance, handlerID) != 0 {
            g_signal_handler_disconnect(instance, handlerID)
        }
        watch = nil
    }
}
