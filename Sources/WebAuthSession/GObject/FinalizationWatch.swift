internal import CWebKitGTK

/// Notices when a GObject is finalized (a GObject weak reference): ``object`` is `nil` from then
/// on and `onFinalize` has run. Releasing the watch first removes the weak reference.
@WebKitActor
final class FinalizationWatch {
    /// The object, until it is finalized.
    var object: UnsafeMutableRawPointer? { state.object }

    private let state: State
    private let userData: UnsafeMutableRawPointer

    /// Watches `object`; `onFinalize` runs on the GLib main context when it is finalized.
    init(_ object: some GObjectPointer, onFinalize: @escaping @WebKitActor () -> Void = {}) {
        state = State(object: object.objectAddress, onFinalize: onFinalize)
        userData = RetainedValue.retained(state)
        g_object_weak_ref(cwk_object(object.objectAddress), Self.notify, userData)
    }

    isolated deinit {
        guard let object = state.object else { return }
        g_object_weak_unref(cwk_object(object), Self.notify, userData)
        RetainedBox.release(userData)
    }

    /// GObject's weak notify: the object is being finalized; the weak reference is gone with it.
    private nonisolated static var notify: GWeakNotify {
        { data, _ in
            guard let state = RetainedValue<State>.take(data) else { return }
            WebKitActor.assumeIsolated {
                state.object = nil
                state.onFinalize()
            }
        }
    }

    @WebKitActor
    private final class State {
        var object: UnsafeMutableRawPointer?
        let onFinalize: @WebKitActor () -> Void

        init(object: UnsafeMutableRawPointer, onFinalize: @escaping @WebKitActor () -> Void) {
            self.object = object
            self.onFinalize = onFinalize
        }
    }
}
