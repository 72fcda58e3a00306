/// The global actor of the broker's D-Bus side: exported objects, calls in flight, requests and
/// callers all live on it. Its executor runs on a thread of the broker's own that iterates a GLib
/// main context of its own (``BusThread``), where GDBus delivers the broker's method calls and
/// signals.
///
/// Why not the engine's main context (``WebKitActor``): a caller's `GetToken` is answered without
/// waiting behind a page that renders, runs JavaScript or lays out a window on the GTK thread, and
/// a broker that only hands out tokens never starts GTK, WebKit or a display at all.
@globalActor
public actor BusActor {
    /// The shared instance.
    public static let shared = BusActor()

    /// Runs on the bus thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        BusThread.shared.asUnownedSerialExecutor()
    }

    /// Runs `operation` as ``BusActor``-isolated code, after checking that the caller is on the
    /// bus thread (GDBus's callbacks are, but the compiler cannot know it); traps when not.
    static func assumeIsolated<T: Sendable>(_ operation: @BusActor () throws -> T) rethrows -> T {
        shared.preconditionIsolated()
        return try withoutActuallyEscaping(operation) { operation in
            try unsafeBitCast(operation, to: (() throws -> T).self)()
        }
    }
}
