import Foundation
import WebAuthSession

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

/// The thread that iterates the broker's main context, and the `SerialExecutor` of ``BusActor``:
/// each job runs once on the thread, in order, one at a time, never inline inside another
/// (`MainContextThread.schedule`). The context is the thread's thread-default one, so
/// GDBus calls back there for everything registered or called from ``BusActor`` code.
final class BusThread: SerialExecutor {
    /// The one bus thread, started on first use.
    static let shared = BusThread()

    private let thread = MainContextThread(name: "webauth-broker-bus")

    private init() {}

    func enqueue(_ job: consuming ExecutorJob) {
        MainContextJob.enqueue(job, on: asUnownedSerialExecutor(), thread.schedule)
    }

    func checkIsolated() {
        precondition(thread.isCurrent, "expected to run on the broker's bus thread")
    }
}
