import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthCommandLine
import WebAuthExitStatus
import WebAuthSession
import WebAuthSupport

/// `webauth doctor`: does this machine have what a sign-in needs?
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check what a sign-in needs here: WebKitGTK, a display or Xvfb, the keyring, the state folder, proxy settings.",
        discussion: """
            Prints one line per check (ok, warning or FAILED) with what to do about each that is \
            not ok, or with --json one object (docs/schemas/doctor.schema.json). Exits 0 when no \
            check failed (warnings are fine), 1 when one did.
            """)

    @Flag(help: "Print the checks as JSON.")
    var json = false

    func run() async throws {
        let checks = await DoctorCheck.all(environment: CommandEnvironment.original)
        if json {
            print(JSONValue.object(["ok": .bool(!checks.contains { $0.status == .failed }),
                                    "version": .string(WebAuthVersion.current),
                                    "checks": .array(checks.map(\.json))]).description)
        } else {
            for check in checks { print(check.line) }
        }
        if checks.contains(where: { $0.status == .failed }) { throw ExitCode(ExitStatus.localFailure.rawValue) }
    }
}

/// One thing `webauth doctor` looked at, what it found, and what to do about it.
struct DoctorCheck {
    /// How it went.
    enum Status: String {
        case ok, warning, failed
    }

    /// A stable name: `webkitgtk`, `display`, `keyring`, `state_folder`, `proxy`.
    let name: String
    let status: Status
    /// What was found.
    let detail: String
    /// What to do, when it is not ok.
    var fix: String?

    /// `ok       display: …`, then `         fix: …`.
    var line: String {
        let label = status == .failed ? "FAILED" : status.rawValue
        return label.padding(toLength: 9, withPad: " ", startingAt: 0) + "\(name): \(detail)"
            + (fix.map { "\n" + String(repeating: " ", count: 9) + "fix: \($0)" } ?? "")
    }

    var json: JSONValue {
        .object(["name": .string(name), "status": .string(status.rawValue), "detail": .string(detail), "fix": fix.map(JSONValue.string) ?? .null])
    }

    /// Every check, in the order a sign-in needs them.
    static func all(environment: [String: String]) async -> [DoctorCheck] {
        [webKit(), display(environment), await keyring(), stateFolder(environment), proxy(environment)]
    }

    static func webKit() -> DoctorCheck {
        let version = WebKitVersion.runtime
        guard version >= WebKitVersion.minimum else {
            return DoctorCheck(name: "webkitgtk", status: .failed, detail: "WebKitGTK \(version) is older than \(WebKitVersion.minimum)",
                               fix: "install WebKitGTK \(WebKitVersion.minimum) or newer (Debian 12: apt-get install libwebkit2gtk-4.1-0 from bookworm-security)")
        }
        return DoctorCheck(name: "webkitgtk", status: .ok, detail: "WebKitGTK \(version) (\(WebKitVersion.minimum) or newer is needed)")
    }

    static func display(_ environment: [String: String]) -> DoctorCheck {
        if let display = environment["WAYLAND_DISPLAY"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return DoctorCheck(name: "display", status: .ok, detail: "Wayland display \(display)")
        }
        if let display = environment["DISPLAY"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return DoctorCheck(name: "display", status: .ok, detail: "X display \(display)")
        }
        guard let xvfb = executable("Xvfb", environment) else {
            return DoctorCheck(name: "display", status: .failed, detail: "no display (DISPLAY and WAYLAND_DISPLAY are unset) and no Xvfb on PATH",
                               fix: "install Xvfb (apt-get install xvfb) for --headless sign-ins, or run in a desktop session")
        }
        return DoctorCheck(name: "display", status: .warning, detail: "no display: --headless sign-ins use a private Xvfb (\(xvfb))",
                           fix: "a person's sign-in window needs a desktop session (or ssh -X); without one, login signs in with the device grant or the browser (--flow); scripts can use --headless")
    }

    /// Whether a sign-in can be saved in the keyring now, as `login` checks it: a Secret Service
    /// answers, and its default collection is there and unlocked.
    static func keyring() async -> DoctorCheck {
        switch await SecretServiceAuthStateStore.problem() {
        case nil:
            return DoctorCheck(name: "keyring", status: .ok, detail: "a Secret Service answers and its default collection is unlocked: sign-ins are saved in the keyring")
        case .unreachable?:
            return DoctorCheck(name: "keyring", status: .warning, detail: "no Secret Service answers: sign-ins are saved in a 0600 file",
                               fix: "to keep them in the keyring, run a Secret Service (gnome-keyring, KeePassXC) in this session")
        case let problem?:
            return DoctorCheck(name: "keyring", status: .warning, detail: "\(problem); until then sign-ins are saved in a 0600 file and login --store keyring fails",
                               fix: "give the keyring an unlocked default collection, or sign in with --store file")
        }
    }

    static func stateFolder(_ environment: [String: String]) -> DoctorCheck {
        let folder: URL
        do { folder = try FileAuthStateStore(name: "default", environment: environment).fileURL.deletingLastPathComponent() } catch {
            return DoctorCheck(name: "state_folder", status: .failed, detail: "\(error)", fix: "set XDG_STATE_HOME or HOME to a folder of yours")
        }
        var info = stat()
        guard stat(folder.path, &info) == 0 else {
            var existing = folder.deletingLastPathComponent()
            while existing.path != "/", !FileManager.default.fileExists(atPath: existing.path) { existing.deleteLastPathComponent() }
            guard access(existing.path, W_OK) == 0 else {
                return DoctorCheck(name: "state_folder", status: .failed, detail: "\(folder.path) does not exist and \(existing.path) is not writable",
                                   fix: "create \(folder.path) (mode 0700), or set XDG_STATE_HOME to a writable folder")
            }
            return DoctorCheck(name: "state_folder", status: .ok, detail: "\(folder.path) will be created (mode 0700) at the first sign-in")
        }
        if info.st_uid != getuid() {
            return DoctorCheck(name: "state_folder", status: .failed, detail: "\(folder.path) belongs to user \(info.st_uid), not to you",
                               fix: "chown it to yourself, or set XDG_STATE_HOME to a folder of yours")
        }
        if info.st_mode & 0o022 != 0 || access(folder.path, W_OK) != 0 {
            return DoctorCheck(name: "state_folder", status: .failed,
                               detail: "\(folder.path) has mode \(String(info.st_mode & 0o777, radix: 8)): others may write to it, or you may not",
                               fix: "chmod 700 \(folder.path)")
        }
        return DoctorCheck(name: "state_folder", status: .ok, detail: "\(folder.path) is yours and private")
    }

    static func proxy(_ environment: [String: String]) -> DoctorCheck {
        let names = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"]
        let set = names.compactMap { name in environment[name].flatMap { $0.isEmpty ? nil : "\(name)=\(URLRedaction.redactingValues($0))" } }
        guard !set.isEmpty else { return DoctorCheck(name: "proxy", status: .ok, detail: "no proxy is set: connections go direct") }
        let bypass = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let missing = ["127.0.0.1", "localhost", "::1"].filter { !bypass.contains($0) }
        guard missing.isEmpty else {
            return DoctorCheck(name: "proxy", status: .warning, detail: "\(set.joined(separator: ", ")), and no_proxy leaves out \(missing.joined(separator: ", "))",
                               fix: "add 127.0.0.1,localhost,::1 to no_proxy, so the loopback redirect and local providers do not go through the proxy")
        }
        return DoctorCheck(name: "proxy", status: .ok, detail: "\(set.joined(separator: ", ")); loopback addresses bypass it")
    }

    /// The path of `name` on `PATH`, if it is there and executable.
    private static func executable(_ name: String, _ environment: [String: String]) -> String? {
        (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
