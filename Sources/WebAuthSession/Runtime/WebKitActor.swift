/// The global actor of everything GTK and WebKit: its executor runs on the GLib main context.
///
/// If the application runs a GTK main loop (see ``EngineConfiguration/MainLoop``), work runs
/// there; otherwise the engine iterates the context on a thread of its own, started on first use.
/// Application code rarely needs it: the public API hops to it by itself.
@globalActor
public actor WebKitActor {
    /// The shared instance.
    public static let shared = WebKitActor()

    /// Runs on the GLib main context.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        GLibMainContextExecutor.shared.asUnownedSerialExecutor()
    }
}
