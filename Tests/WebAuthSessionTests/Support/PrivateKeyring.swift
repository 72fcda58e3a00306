import Foundation
import TestSupport

/// A real Secret Service for a test process with no desktop: a private D-Bus session and an
/// unlocked gnome-keyring, with HOME in a scratch directory. Call only in a child process (an
/// exit test): it changes this process's environment. The daemons are started with libc's
/// `popen` and `system`, which wait for their launchers directly (Foundation's `Process` does not
/// notice their exit inside an exit-test child).
enum PrivateKeyring {
    /// Starts the bus and the keyring; returns the bus daemon's pid, for ``stop(_:)``. With
    /// `unlocked` false, the keyring starts as a desktop would without the user's password: no
    /// "login" collection, so no default collection for new items.
    static func start(unlocked: Bool = true) throws -> pid_t {
        let home = TemporaryFiles.folder("webauth-keyring")
        setenv("HOME", home.path, 1)
        setenv("XDG_DATA_HOME", home.path + "/data", 1)
        setenv("XDG_RUNTIME_DIR", home.path, 1)
        unsetenv("DISPLAY")  // the keyring's password prompter must fail, not open a window
        unsetenv("WAYLAND_DISPLAY")

        guard let bus = popen("dbus-daemon --session --fork --print-address=1 --print-pid=1 2>/dev/null", "r") else {
            throw CocoaError(.executableLoad)
        }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 1024)
        while lines.count < 2, fgets(&buffer, Int32(buffer.count), bus) != nil {
            lines.append(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        pclose(bus)
        guard lines.count == 2, let pid = pid_t(lines[1]) else { throw CocoaError(.executableLoad) }
        setenv("DBUS_SESSION_BUS_ADDRESS", lines[0], 1)
        let keyring = unlocked ? "printf test-password | gnome-keyring-daemon --unlock --components=secrets"
            : "gnome-keyring-daemon --daemonize --components=secrets </dev/null"
        guard system(keyring + " >/dev/null 2>&1") == 0 else {
            kill(pid, SIGKILL)
            throw CocoaError(.executableLoad)
        }
        return pid
    }

    /// Stops the bus; the keyring daemon leaves with it.
    static func stop(_ bus: pid_t) {
        kill(bus, SIGKILL)
    }
}
