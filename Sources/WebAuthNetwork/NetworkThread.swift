import Foundation
import GLibKit
import OpenIDConnect
import WebAuthSupport

/// A GLib main context of its own, iterated on a thread of its own, for ``SoupHTTPClient``: the
/// token, userinfo and refresh requests need no GTK, no display and no engine loop. Started on
/// first use; it runs for the rest of the process (it holds nothing that must be shut down).
package final class NetworkThread: Sendable {
    /// The one network thread.
    package static let shared = NetworkThread()

    /// libsoup binds a session to the thread-default context it was made under: this thread's.
    private let thread = MainContextThread(name: "webauth-network")
    /// The work given to the thread, oldest first. It travels through this pthread-locked queue,
    /// not in the source's data: GLib's own lock is a futex ThreadSanitizer cannot see, so
    /// through GLib alone it reports the caller's writes and the work's reads as a race.
    private let pending = LockedState<[@Sendable () -> Void]>([])

    private init() {}

    /// Runs `work` on the network thread, in order with the other work given to it.
    package func run(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(work) }
        // One source per piece of work; each runs the oldest piece left.
        thread.schedule({ _ in
            NetworkThread.shared.pending.withLock { $0.removeFirst() }()
            return 0  // G_SOURCE_REMOVE
        }, nil)
    }
}
