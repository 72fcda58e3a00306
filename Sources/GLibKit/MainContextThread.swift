import Foundation
package import CSoup

/// A GLib main context of its own, iterated on a thread of its own and pushed there as the
/// thread-default context, so that what is made or called on it (a libsoup session, a GDBus
/// object or call) calls back on that thread: the network thread's, the broker's bus thread's.
/// Started when made; it runs for the rest of the process (it holds nothing that must be shut down).
package final class MainContextThread: Sendable {
    /// A `GMainContext *`. @unchecked: from other threads only `g_source_attach` (through
    /// `cwk_main_context_schedule`) and `g_main_context_is_owner` touch it, and GLib documents
    /// both as thread-safe.
    private struct ContextHandle: @unchecked Sendable {
        package let pointer: OpaquePointer
    }

    private let context: ContextHandle

    /// Starts a thread named `name` iterating a new main context.
    package init(name: String) {
        let context = ContextHandle(pointer: g_main_context_new()!)
        self.context = context
        let thread = Thread {
            g_main_context_push_thread_default(context.pointer)
            let loop = g_main_loop_new(context.pointer, 0)
            g_main_loop_run(loop)
        }
        thread.name = name
        thread.start()
    }

    /// Runs `function` with `data` once on the thread, after what was scheduled before it (a
    /// one-shot idle source at default priority: never inline inside other work).
    package func schedule(_ function: GSourceFunc, _ data: UnsafeMutableRawPointer?) {
        cwk_main_context_schedule(context.pointer, function, data)
    }

    /// Whether the caller runs on the thread, inside its loop.
    package var isCurrent: Bool { g_main_context_is_owner(context.pointer) != 0 }
}
