import CWebKitGTK
@testable import WebAuthSession

/// Waits on GTK's frame clock: a condition about what a person would see is checked at each frame
/// a widget's window draws, until it holds, as a person looks again at the next frame.
enum FrameWait {
    /// Returns once `condition` holds at a frame of the widget `find` returns (on the GTK thread);
    /// `false` when there is no widget, it went away first, or `frames` frames passed first (a
    /// minute at 60 frames a second: never a hang).
    @discardableResult
    static func until(of find: @escaping @WebKitActor @Sendable () -> UnsafeMutablePointer<GtkWidget>?,
                      frames: Int = 3600, _ condition: @escaping @WebKitActor @Sendable () -> Bool) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Task { @WebKitActor in
                guard let widget = find() else { return continuation.resume(returning: false) }
                if condition() { return continuation.resume(returning: true) }
                let watch = Watch(condition: condition, frames: frames, continuation: continuation)
                gtk_widget_add_tick_callback(widget, { _, _, data in
                    let watch = Unmanaged<Watch>.fromOpaque(data!).takeUnretainedValue()
                    return WebKitActor.assumeIsolated { watch.check() } ? 0 : 1  // G_SOURCE_REMOVE once it holds
                }, Unmanaged.passRetained(watch).toOpaque(), { data in
                    let watch = Unmanaged<Watch>.fromOpaque(data!).takeRetainedValue()
                    WebKitActor.assumeIsolated { watch.end() }  // the widget went away first: resumed with false
                })
            }
        }
    }

    /// One wait: its condition, and the continuation resumed once.
    @WebKitActor
    private final class Watch {
        let condition: @WebKitActor @Sendable () -> Bool
        var framesLeft: Int
        var continuation: CheckedContinuation<Bool, Never>?

        init(condition: @escaping @WebKitActor @Sendable () -> Bool, frames: Int, continuation: CheckedContinuation<Bool, Never>) {
            self.condition = condition
            self.framesLeft = frames
            self.continuation = continuation
        }

        /// Whether the wait is over: the condition holds (resumed with `true`), or no frame is left (`false`).
        func check() -> Bool {
            framesLeft -= 1
            let holds = condition()
            guard holds || framesLeft <= 0 else { return false }
            continuation?.resume(returning: holds)
            continuation = nil
            return true
        }

        /// Resumes the wait with `false` if nothing did.
        func end() {
            continuation?.resume(returning: false)
            continuation = nil
        }
    }
}
