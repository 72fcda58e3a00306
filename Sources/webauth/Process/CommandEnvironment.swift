import Foundation
import Synchronization
import OpenIDConnect
import WebAuthSession

/// The environment `webauth` started with, read once into memory, and the one place that takes
/// secrets out of the process's own environment.
///
/// WebKit's web and network processes (which run the provider's JavaScript) and every other
/// program this process starts inherit its environment, and WebKitGTK 4.1 has no way to give them
/// another. So ``withholdSecrets(_:)`` removes our secret variables (``SecretVariables/known``)
/// and a login script's (its `env:` values and `secret_env:` TOTP seeds) from the environment
/// before GTK starts and before any view is made; the command reads them from ``original``. Their
/// values are blanked in the block `/proc/PID/environ` shows as well, which `unsetenv` leaves as it
/// was: a process viewer or a crash reporter of the same user reads that block.
enum CommandEnvironment {
    /// The environment as the process started, secrets included. Read first thing in `main`.
    static let original: [String: String] = ProcessInfo.processInfo.environment

    /// Removes `names` and ``SecretVariables/known`` from the process's environment and blanks their
    /// values in its initial environment block (their values stay in ``original``).
    static func withholdSecrets(_ names: some Sequence<String> = []) {
        _ = original  // read before anything is removed
        GTKEnvironment.withhold(SecretVariables.known.union(names))
    }

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
