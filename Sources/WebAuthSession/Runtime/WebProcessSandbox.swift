import Foundation
import Logging
internal import CWebKitGTK

/// Whether the engine's web processes (the ones that run the provider's pages and scripts) run in
/// WebKit's bubblewrap sandbox: their own PID, network and IPC namespaces, a read-only view of
/// the system with a private `/tmp`, and a system-call filter. ``WebAuthEngine/diagnostics``
/// reports it.
///
/// It is on wherever bubblewrap can run. WebKit's choice has to be made before a context starts
/// its first web process, and a sandbox that cannot start aborts the whole program, so the engine
/// runs bubblewrap once, with the namespaces WebKit asks for, before it makes its first context.
/// The setting belongs to each web context, so web processes a GTK application started in its own
/// contexts (unsandboxed or not) neither stop it nor are changed by it.
public enum WebProcessSandbox: Sendable, Hashable, CustomStringConvertible {
    /// On: every web process runs inside bubblewrap.
    case on
    /// Off: `/usr/bin/bwrap` (where WebKitGTK looks for it) is not installed. Install the
    /// `bubblewrap` package and restart the program.
    case bubblewrapMissing
    /// Off: bubblewrap is installed but cannot make its namespaces here (a container that forbids
    /// them, or a kernel or AppArmor policy against unprivileged user namespaces); `message` is
    /// what it said. Allow them (for example `sysctl kernel.apparmor_restrict_unprivileged_userns=0`,
    /// or a container with user namespaces) and restart the program.
    case bubblewrapFailed(String)
    /// Off: WebKit does not use bubblewrap inside Flatpak or Snap; `evidence` is what showed it.
    /// Outside Flatpak, a stray `/.flatpak-info` (left by a program whose D-Bus proxy sandbox had
    /// `/` mounted writable) has the same effect on every WebKit program: delete it.
    case unsupportedPackaging(evidence: String)
    /// Off: WebKit would start its sandboxed D-Bus proxy for the session bus `address`, and that
    /// would go wrong for `reason`: the socket's directory is missing (WebKit aborts the program
    /// when the proxy cannot start), or it is `/` (WebKit mounts the socket's directory writable
    /// into the proxy's sandbox, which then writes into the real `/`), or `xdg-dbus-proxy` is not
    /// installed. Point `DBUS_SESSION_BUS_ADDRESS` at a socket in a directory of its own (or unset
    /// it), or install `xdg-dbus-proxy`.
    case sessionBusUnusable(address: String, reason: String)

    public var description: String {
        switch self {
        case .on: "the web process sandbox is on"
        case .bubblewrapMissing:
            "the web process sandbox is off: \(Self.bubblewrapPath) is not installed (apt-get install bubblewrap)"
        case .bubblewrapFailed(let message):
            "the web process sandbox is off: bubblewrap cannot run here (\(message)); allow unprivileged user namespaces to turn it on"
        case .unsupportedPackaging(let evidence):
            "the web process sandbox is off: WebKit does not use bubblewrap inside Flatpak or Snap (\(evidence))"
        case .sessionBusUnusable(let address, let reason):
            "the web process sandbox is off: WebKit's D-Bus proxy for DBUS_SESSION_BUS_ADDRESS (\(address)) cannot be sandboxed safely: \(reason)"
        }
    }

    /// Where WebKitGTK runs bubblewrap from (the path it was built with).
    static let bubblewrapPath = "/usr/bin/bwrap"

    /// The engine's sandbox, decided on first use; when it is off, a warning says why, once.
    static let current: WebProcessSandbox = {
        let decision = decide(environment: ProcessInfo.processInfo.environment)
        if decision != .on { Logger(label: "WebAuthSession").warning("\(decision)") }
        return decision
    }()

    /// Turns the sandbox on for `context` where it can run. Call it before the context starts its
    /// first web process: WebKit aborts the program if it is changed later.
    @WebKitActor
    static func apply(to context: UnsafeMutablePointer<WebKitWebContext>) {
        guard current == .on else { return }
        webkit_web_context_set_sandbox_enabled(context, 1)
    }

    /// Whether `environment` names a D-Bus session whose socket is not there (not: names none).
    /// With a runtime directory, WebKit proxies such a bus, and every web process warns it cannot connect.
    package static func namesMissingSessionBus(_ environment: [String: String]) -> Bool {
        environment["DBUS_SESSION_BUS_ADDRESS"].map { !$0.isEmpty } == true && hasNoSessionBus(environment)
    }

    /// Whether `environment` has no usable D-Bus session: none set, or its socket is not there.
    static func hasNoSessionBus(_ environment: [String: String]) -> Bool {
        guard let session = environment["DBUS_SESSION_BUS_ADDRESS"], !session.isEmpty else { return true }
        return socketPath(of: session).map { !FileManager.default.fileExists(atPath: $0) } == true
    }

    /// Whether WebKit would run web processes in bubblewrap here, and safely: the checks WebKit
    /// makes itself (Flatpak, Snap), the D-Bus proxy it would start, then a run of bubblewrap.
    static func decide(environment: [String: String], bubblewrap: String = bubblewrapPath,
                       flatpakInfo: String = "/.flatpak-info") -> WebProcessSandbox {
        if access(flatpakInfo, F_OK) == 0 { return .unsupportedPackaging(evidence: "\(flatpakInfo) exists") }
        if environment["SNAP"] != nil, environment["SNAP_NAME"] != nil, environment["SNAP_REVISION"] != nil {
            return .unsupportedPackaging(evidence: "SNAP, SNAP_NAME and SNAP_REVISION are set")
        }
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            guard access(dbusProxyPath, X_OK) == 0 else {
                return .sessionBusUnusable(address: address, reason: "\(dbusProxyPath) is not installed (apt-get install xdg-dbus-proxy)")
            }
            // WebKit mounts the directory of a `unix:path=` socket into the proxy's sandbox.
            if let path = socketPath(of: address) {
                let directory = (path as NSString).deletingLastPathComponent
                if directory == "/" { return .sessionBusUnusable(address: address, reason: "its socket is directly in /") }
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                    return .sessionBusUnusable(address: address, reason: "the socket's directory \(directory) does not exist")
                }
            }
        }
        return probe(bubblewrap: bubblewrap)
    }

    /// The socket of a `unix:path=` D-Bus address, read as WebKit reads it.
    private static func socketPath(of address: String) -> String? {
        guard address.hasPrefix("unix:"),
              let path = address.split(separator: ",").first(where: { $0.contains("path=") })?.split(separator: "=", maxSplits: 1).last
        else { return nil }
        return String(path)
    }

    /// Where WebKitGTK runs its D-Bus proxy from.
    static let dbusProxyPath = "/usr/bin/xdg-dbus-proxy"

    /// Runs the `bubblewrap` executable with the namespaces and mounts WebKit asks for on a web process.
    static func probe(bubblewrap: String) -> WebProcessSandbox {
        guard access(bubblewrap, X_OK) == 0 else { return .bubblewrapMissing }
        let arguments = [bubblewrap, "--die-with-parent", "--unshare-pid", "--unshare-uts", "--unshare-net", "--unshare-ipc",
                         "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "true"]
        var argv: [UnsafeMutablePointer<gchar>?] = arguments.map { g_strdup($0) } + [nil]
        defer { argv.forEach { g_free($0) } }
        var errorOutput: UnsafeMutablePointer<gchar>?
        var status: gint = 0
        defer { g_free(errorOutput) }
        let flags = GSpawnFlags(rawValue: G_SPAWN_STDOUT_TO_DEV_NULL.rawValue)
        do throws(GLibError) {
            guard try GLibError.attempt({ g_spawn_sync(nil, &argv, nil, flags, nil, nil, nil, &errorOutput, &status, $0) }) != 0 else {
                return .bubblewrapFailed("it could not be started")
            }
        } catch {
            return .bubblewrapFailed(error.message)
        }
        do throws(GLibError) {
            _ = try GLibError.attempt { g_spawn_check_wait_status(status, $0) }
            return .on
        } catch {
            let said = errorOutput.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return .bubblewrapFailed(said.isEmpty ? error.message : said)
        }
    }
}
