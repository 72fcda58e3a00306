#if canImport(Glibc)
import Glibc
#endif

/// Where the session bus is, for a process that must never start one (GDBus's autolaunch, or GLib
/// making `~/.cache` its runtime folder when it looks for one).
package enum SessionBus {
    /// The session bus's address in `environment`: `DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus` when that socket exists; `nil` when there is no bus to reach.
    package static func address(_ environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        let socket = runtime + "/bus"
        var status = stat()
        guard stat(socket, &status) == 0, (status.st_mode & S_IFMT) == S_IFSOCK else { return nil }
        return "unix:path=" + socket
    }
}
