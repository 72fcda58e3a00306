import Foundation
import WebAuthCommandLine
import WebAuthSession

/// The engine's runtime directory: GLib, WebKit's sandbox and dconf put files there.
extension CommandEnvironment {
    /// A private `XDG_RUNTIME_DIR` (``provideRuntimeDirectory(allowed:)``), but not when
    /// `DBUS_SESSION_BUS_ADDRESS` names a socket that is not there: with a runtime directory WebKit
    /// starts its D-Bus proxy for that bus, and every web process warns that it cannot connect.
    static func provideEngineRuntimeDirectory() {
        provideRuntimeDirectory(allowed: !WebProcessSandbox.namesMissingSessionBus(original))
    }
}
