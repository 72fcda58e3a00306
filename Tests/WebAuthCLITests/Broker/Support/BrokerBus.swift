import Foundation
import TestSupport
import Testing

/// A private session bus (a dbus-daemon with a configuration of its own: the session bus's
/// limits, and nothing of the machine's is activated on it unless asked) on which the repository's activation file,
/// scripts/broker/org.webauthsession.Broker.service, starts `webauth broker` at the first call,
/// as on a desktop. The broker runs in ``WebAuthBinary/home``'s folders; what it logs goes to the
/// daemon's stderr, kept in ``log``. With a display, an Xvfb of its own (`-displayfd`).
struct BrokerBus {
    /// The sandbox the broker and the clients share (its folders, `webauth broker --grant`).
    let webauth: WebAuthBinary
    /// The bus's address.
    let address: String
    /// The X display (`:N`), when there is one.
    let display: String?
    /// The daemon's stderr: the broker's log.
    let log: URL
    private let daemon: ChildProcess
    private let xvfb: ChildProcess?

    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Starts the bus (and an Xvfb when `display`); the broker it activates runs
    /// `webauth broker ARGUMENTS` with `environment` added (a login script's secrets). With
    /// `machineServices`, the machine's session services are activated on it too, as on a bus of
    /// `dbus-run-session` (gnome-keyring's Secret Service among them).
    static func start(_ webauth: WebAuthBinary, display: Bool = false, arguments: [String] = ["--allow-scripts"],
                      environment extra: [String: String] = [:], machineServices: Bool = false) async throws -> BrokerBus {
        let directory = webauth.home.appendingPathComponent("bus-\(UUID().uuidString.prefix(8))")
        let services = directory.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let template = try String(contentsOf: root.appendingPathComponent("scripts/broker/org.webauthsession.Broker.service"), encoding: .utf8)
        try template.replacingOccurrences(of: "@enginedir@/webauth-engine broker",
                                          with: ([WebAuthBinary.binary.deletingLastPathComponent().appendingPathComponent("webauth-engine").path, "broker"] + arguments).joined(separator: " "))
            .write(to: services.appendingPathComponent("org.webauthsession.Broker.service"), atomically: true, encoding: .utf8)
        let started = display ? try await startDisplay() : nil
        let (xvfb, name) = (started?.server, started?.name)
        let address = "unix:path=" + directory.appendingPathComponent("socket").path
        let config = directory.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <servicedir>\(services.path)</servicedir>\(machineServices ? "\n  <servicedir>/usr/share/dbus-1/services</servicedir>" : "")
              <limit name="max_incoming_bytes">1000000000</limit>
              <limit name="max_outgoing_bytes">1000000000</limit>
              <limit name="max_message_size">1000000000</limit>
              <limit name="service_start_timeout">120000</limit>
              <limit name="max_match_rules_per_connection">50000</limit>
              <limit name="max_replies_per_connection">50000</limit>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("bus.log")
        var environment = webauth.baseEnvironment.merging(extra) { $1 }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["DISPLAY"] = name
        let daemon = try ChildProcess("dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--print-address=1"],
                                      environment: environment, stdout: .pipe, stderr: .file(log.path))
        _ = await daemon.firstLine()  // the address: it listens
        return BrokerBus(webauth: webauth, address: address, display: name, log: log, daemon: daemon, xvfb: xvfb)
    }

    /// What a client needs: the bus, and the display when there is one.
    var clientEnvironment: [String: String] {
        var environment = ["DBUS_SESSION_BUS_ADDRESS": address]
        environment["DISPLAY"] = display
        return environment
    }

    /// Runs `executable` as a client of the bus.
    func run(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:]) async throws -> WebAuthBinary.Run {
        try await webauth.run(URL(fileURLWithPath: executable), arguments, environment: clientEnvironment.merging(extra) { $1 })
    }

    /// `gdbus call` of the broker's `method` (of `interface`) with `arguments` in GVariant text.
    func gdbus(_ method: String, _ arguments: [String] = [], interface: String = "org.webauthsession.Broker1") async throws -> WebAuthBinary.Run {
        try await run("/usr/bin/gdbus", ["call", "--session", "--dest", "org.webauthsession.Broker", "--object-path", "/org/webauthsession/Broker",
                                         "--method", "\(interface).\(method)"] + arguments)
    }

    /// Runs the Python program `source` (Debian's python3, which has `gi`) with `arguments`.
    func python(_ source: String, _ arguments: [String] = []) async throws -> WebAuthBinary.Run {
        try await run("/usr/bin/python3", [try pythonScript(source)] + arguments)
    }

    /// The file `source` runs from: one per source, so a program is the same app at every run.
    func pythonScript(_ source: String) throws -> String {
        try webauth.file("client-\(String(UInt(bitPattern: source.hashValue), radix: 16)).py", source)
    }

    /// The app the broker sees in the Python program `source`: the interpreter's path and the script's.
    func pythonApp(_ source: String) throws -> String {
        let interpreter = try FileManager.default.destinationOfSymbolicLink(atPath: "/usr/bin/python3")
        return "/usr/bin/\(interpreter) \(try pythonScript(source))"
    }

    /// The process ID of the broker that owns its name now (the bus daemon knows it).
    func brokerProcess() async throws -> pid_t {
        let answer = try await run("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                      "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.webauthsession.Broker"])
        // "(uint32 1234,)"
        guard let pid = answer.stdout.split(separator: " ").last.flatMap({ pid_t($0.filter(\.isNumber)) }) else { throw CocoaError(.executableLoad) }
        return pid
    }

    /// What the broker has logged so far.
    var brokerLog: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Stops the bus (the broker, whose connection closes, exits with it) and the display.
    func stop() async {
        await daemon.stop()
        if let xvfb { await Self.stopDisplay(xvfb) }
    }

    /// Ends an Xvfb with SIGTERM and waits for it: it first waits for the keymap compiler it may be
    /// running for a client that just connected (xdotool, GTK), which SIGKILL would leave behind.
    /// Starts an Xvfb of its own (`-displayfd`) and returns it with its display name. As the
    /// engine's own private Xvfb (`VirtualDisplay`), a server whose socket file is missing (an
    /// exiting server on the same number deleted it; a sandboxed web process needs the file) is
    /// stopped and another started, three in all.
    static func startDisplay() async throws -> (server: ChildProcess, name: String) {
        var missing = ""
        for _ in 1...3 {
            let server = try ChildProcess("Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x1024x24"],
                                          environment: ["PATH": "/usr/bin:/bin"], stdout: .pipe)
            let number = try #require(await server.firstLine(), "Xvfb reported no display")
            if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { return (server, ":" + number) }
            await stopDisplay(server)
            missing = number
        }
        throw NoSocketFile(display: ":" + missing)
    }

    /// Three Xvfb servers in a row reported a display with no socket file.
    struct NoSocketFile: Error, CustomStringConvertible {
        let display: String
        var description: String { "three Xvfb servers in a row had no socket file (the last \(display))" }
    }

    static func stopDisplay(_ xvfb: ChildProcess) async {
        xvfb.signal(SIGTERM)
        _ = await xvfb.exitStatus()
    }
}
