import Foundation
import Synchronization
import WebAuthCommandLine
import WebAuthSession

/// The engine's runtime directory: GLib, WebKit's sandbox and dconf put files there.
extension CommandEnvironment {
    /// With no `XDG_RUNTIME_DIR` (SSH without a login session, containers, CI), GLib puts runtime
    /// files under `~/.cache`: WebKit's sandbox records (`.flatpak/webkit-*/bwrapinfo.json`, one per
    /// web process) and dconf's `user` file. This points it at a private folder (0700, under
    /// `$TMPDIR`, or `/tmp` when that is too deep for the sockets WebKit's D-Bus proxy makes in it:
    /// a socket's path has at most 107 bytes) removed when the command exits, before anything reads
    /// it: GLib reads it once.
    ///
    /// Not when `DBUS_SESSION_BUS_ADDRESS` names a socket that is not there: with a runtime
    /// directory WebKit starts its D-Bus proxy for that bus, and every web process warns that it
    /// cannot connect.
    static func provideRuntimeDirectory() {
        guard (getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "").isEmpty, !WebProcessSandbox.namesMissingSessionBus(original) else { return }
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory()).path
        var template = Array(((temporary.utf8.count <= 40 ? temporary : "/tmp") + "/webauth-runtime-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { return }  // GLib's fallback then, as before
        let path = String(cString: created)
        runtimeDirectory.withLock { $0 = path }
        GTKEnvironment.useRuntimeDirectory(path)
        atexit { CommandEnvironment.runtimeDirectory.withLock { $0 }.map { try? FileManager.default.removeItem(atPath: $0) } }
    }

    /// The folder ``provideRuntimeDirectory()`` made, if it made one.
    private static let runtimeDirectory = Mutex<String?>(nil)
}
