import Foundation
import SecretGate
import Synchronization
import OpenIDConnect
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

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
package enum CommandEnvironment {
    /// The environment as the process started, secrets included. Read first thing in `main`.
    package static let original: [String: String] = ProcessInfo.processInfo.environment

    /// Removes `names` and ``SecretVariables/known`` from the process's environment and blanks their
    /// values in its initial environment block (their values stay in ``original``).
    package static func withholdSecrets(_ names: some Sequence<String> = []) {
        _ = original  // read before anything is removed
        let names = SecretVariables.known.union(names)
        for name in names where getenv(name) != nil { unsetenv(name) }
        InitialEnvironmentBlock.blankValues(of: names)
    }


    /// Removes `name`, a variable meant for this process alone (no process it starts inherits it),
    /// from the environment and returns its value.
    package static func take(_ name: String) -> String? {
        _ = original  // read before anything is removed
        guard let value = getenv(name).map({ String(cString: $0) }) else { return nil }
        unsetenv(name)
        return value
    }

    /// With no `XDG_RUNTIME_DIR` (SSH without a login session, containers, CI), GLib puts runtime
    /// files under `~/.cache`: dconf's `user` file (GIO's settings, which libsoup's proxy lookup
    /// reads, in the light commands too) and, in the engine, WebKit's sandbox records. This points it
    /// at a private folder (0700, under `$TMPDIR`, or `/tmp` when that is too deep for the sockets
    /// WebKit's D-Bus proxy makes in it: a socket's path has at most 107 bytes) removed when the
    /// command exits (or before ``ProgramReplacement`` replaces it), before anything reads it: GLib
    /// reads it once. `allowed` is the engine's say (not when WebKit would proxy a missing bus).
    package static func provideRuntimeDirectory(allowed: Bool = true) {
        guard allowed, (getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "").isEmpty else { return }
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory()).path
        var template = Array(((temporary.utf8.count <= 40 ? temporary : "/tmp") + "/webauth-runtime-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { return }  // GLib's fallback then, as before
        let path = String(cString: created)
        runtimeDirectory.withLock { $0 = path }
        setenv("XDG_RUNTIME_DIR", path, 1)
        atexit { CommandEnvironment.removeRuntimeDirectory() }
    }

    /// Removes the folder ``provideRuntimeDirectory(allowed:)`` made, if it made one.
    package static func removeRuntimeDirectory() {
        runtimeDirectory.withLock { path in
            path.map { try? FileManager.default.removeItem(atPath: $0) }
            path = nil
        }
    }

    /// The folder ``provideRuntimeDirectory(allowed:)`` made, if it made one.
    private static let runtimeDirectory = Mutex<String?>(nil)
}
