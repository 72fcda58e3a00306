import Foundation
import OpenIDConnect
import TestSupport

/// A private D-Bus session with a real gnome-keyring on it, for `webauth` children: the address
/// goes in their `DBUS_SESSION_BUS_ADDRESS`. Nothing in this process's environment changes.
struct PrivateSessionBus {
    /// The bus's address.
    let address: String
    private let bus: ChildProcess
    private let environment: [String: String]

    /// Starts the bus and the keyring under `home`. `unlocked`: the keyring has an unlocked
    /// "login" collection (as after a desktop login); otherwise it has no collection at all.
    static func start(home: URL, unlocked: Bool = true) async throws -> PrivateSessionBus {
        let directory = home.appendingPathComponent("bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // No display: the keyring's password prompter must fail at once, never open a window.
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory.path,
                           "XDG_DATA_HOME": directory.path + "/data", "XDG_RUNTIME_DIR": directory.path]
        let address = "unix:path=" + directory.appendingPathComponent("socket").path
        let bus = try ChildProcess("dbus-daemon", ["--session", "--nofork", "--address=\(address)", "--print-address=1"],
                                   environment: environment, stdout: .pipe)
        _ = await bus.firstLine()  // the address line: the bus listens
        let keyring = unlocked ? "printf test-password | gnome-keyring-daemon --unlock --components=secrets"
            : "gnome-keyring-daemon --daemonize --components=secrets </dev/null"
        let started = try ChildProcess("sh", ["-c", keyring + " >/dev/null 2>&1"],
                                       environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 })
        guard await started.exitStatus() == 0 else {
            await bus.stop()
            throw CocoaError(.executableLoad)
        }
        return PrivateSessionBus(address: address, bus: bus, environment: environment)
    }

    /// Locks the keyring's "login" collection, as a screen lock or `seahorse` would.
    func lockLoginCollection() async throws {
        let lock = try ChildProcess("dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
                                                  "org.freedesktop.Secret.Service.Lock", "array:objpath:/org/freedesktop/secrets/collection/login"],
                                    environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 })
        guard await lock.exitStatus() == 0 else { throw CocoaError(.executableLoad) }
    }

    /// Stops the bus; the keyring leaves with it.
    func stop() async {
        await bus.stop()
    }
}
