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

    public var description: String {
        switch self {
        case .on: "the web process sandbox is on"
        case .bubblewrapMissing:
            "the web process sandbox is off: \(Self.bubblewrapPath) is not installed (apt-get install bubblewrap)"
        case .bubblewrapFailed(let message):
            "the web process sandbox is off: bubblewrap cannot run here (\(message)); allow unprivileged user namespaces to turn it on"
        }
    }

    /// Where WebKitGTK runs bubblewrap from (the path it was built with).
    static let bubblewrapPath = "/usr/bin/bwrap"

    /// The engine's sandbox, decided on first use; when it is off, a warning says why, once.
    static let current: WebProcessSandbox = {
        let decision = probe(bubblewrap: bubblewrapPath)
        if decision != .on { Logger(label: "WebAuthSession").warning("\(decision)") }
        return decision
    }()

    /// Turns the sandbox on for `context` where it can run. Call it before the context starts its
    /// first web process: WebKit aborts the program if it is changed later.
    @WebKitActor
    static func apply(to context: UnsafeMutablePointer<WebKitWebContext>) {
        guard current == .on else { return }
        webkit_web_context_set_sandbox_enabled(context, 1)
        // With no D-Bus session there is no accessibility bus, but a sandboxed web process still
        // tries the proxy WebKit would have made for one, and warns at every launch ("Can't connect
        // to a11y bus"). An empty address tells it there is none.
        let environment = ProcessInfo.processInfo.environment
        if environment["DBUS_SESSION_BUS_ADDRESS"] == nil, environment["AT_SPI_BUS_ADDRESS"] == nil,
           environment["WEBKIT_A11Y_BUS_ADDRESS"] == nil {
            setenv("WEBKIT_A11Y_BUS_ADDRESS", "", 1)
        }
    }

    /// Runs the `bubblewrap` executable with the namespaces and mounts WebKit asks for on a web process.
    static func probe(bubblewrap: String) -> WebProcessSandbox {
        guard access(bubblewrap, X_OK) == 0 else { return .bubblewrapMissing }
        let arguments = [bubblewrap, "--die-with-parent", "--unshare-pid", "--unshare-uts", "--unshare-net", "--unshare-ipc",
                         "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "true"]
        var argv: [UnsafeMutablePointer<gchar>?] = arguments.map { g_strdup($0) } + [nil]
        defer { argv.forEach { g_free($0) } }
        var errorOutput: UnsafeMutablePointer<gchar>?
        var status: gint = 0
        var error: UnsafeMutablePointer<GError>?
        defer {
            g_free(errorOutput)
            if let error { g_error_free(error) }
        }
        let flags = GSpawnFlags(rawValue: G_SPAWN_STDOUT_TO_DEV_NULL.rawValue)
        guard g_spawn_sync(nil, &argv, nil, flags, nil, nil, nil, &errorOutput, &status, &error) != 0 else {
            return .bubblewrapFailed(error.map { String(cString: $0.pointee.message) } ?? "it could not be started")
        }
        guard g_spawn_check_wait_status(status, &error) != 0 else {
            let said = errorOutput.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return .bubblewrapFailed(said.isEmpty ? error.map { String(cString: $0.pointee.message) } ?? "it failed" : said)
        }
        return .on
    }
}
