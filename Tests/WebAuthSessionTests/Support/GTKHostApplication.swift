import CWebKitGTK
import Foundation
import Synchronization
@testable import WebAuthSession

/// A stand-in for a GTK application: a thread that initialises GTK on a private Xvfb, shows a
/// main window and runs `gtk_main`, as an application's main thread would.
final class GTKHostApplication: @unchecked Sendable {
    // @unchecked: `window` is created on the GTK thread before `init` returns and afterwards only
    // read as an address; quitting goes through g_idle_add, which GLib allows from any thread.
    /// The host's main window (`GtkWindow *`).
    let window: UnsafeMutableRawPointer
    private let finished = DispatchSemaphore(value: 0)
    /// The GTK thread.
    static let threadID = Mutex<pthread_t>(0)
    /// Whether ``destroyWindow()`` destroyed the main window (the GTK thread then leaves it alone).
    static let windowDestroyed = Mutex<Bool>(false)

    /// The host's Xvfb, stopped (and its authority folder removed) when the process exits: the tests
    /// run the host in a child process that ends with `exit`.
    private static let display = Mutex<VirtualDisplay?>(nil)

    init() throws {
        let display = try VirtualDisplay(XvfbScreen(width: 1024, height: 768, offersGL: true))
        Self.display.withLock { $0 = display }
        atexit { GTKHostApplication.display.withLock { $0.take() }?.stop() }
        setenv("DISPLAY", display.name, 1)
        setenv("XAUTHORITY", display.authority.path, 1)
        let ready = DispatchSemaphore(value: 0)
        let created = Mutex<UInt>(0)
        let finished = self.finished
        let thread = Thread {
            GTKHostApplication.threadID.withLock { $0 = pthread_self() }
            guard gtk_init_check(nil, nil) != 0 else {
                ready.signal()
                return
            }
            let window = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
            gtk_window_set_title(cwk_window(window), "Host application")
            gtk_widget_show_all(window)
            created.withLock { $0 = UInt(bitPattern: window) }
            ready.signal()
            gtk_main()
            if !GTKHostApplication.windowDestroyed.withLock({ $0 }) { gtk_widget_destroy(window) }
            finished.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        ready.wait()
        guard let window = UnsafeMutableRawPointer(bitPattern: created.withLock({ $0 })) else { throw WebAuthenticationError.noDisplay(.displayNotOpened(name: ProcessInfo.processInfo.environment["DISPLAY"] ?? "")) }
        self.window = window
    }

    /// Destroys the main window now, as an application does when it closes it (on the GTK
    /// thread, which runs the engine's actor here).
    @WebKitActor
    func destroyWindow() {
        GTKHostApplication.windowDestroyed.withLock { $0 = true }
        gtk_widget_destroy(window.assumingMemoryBound(to: GtkWidget.self))
    }

    /// Quits `gtk_main` and waits for the GTK thread to finish, as an application does before exiting.
    func quit() {
        g_idle_add({ _ in gtk_main_quit(); return 0 }, nil)
        finished.wait()
    }
}
