import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthBroker
import WebAuthExitStatus
import WebAuthSession
import WebAuthCommandLine

/// `webauth broker`: the sign-in broker on the session bus, or its consent answers from a terminal.
struct BrokerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broker",
        abstract: "Serve sign-ins and tokens to other applications on the session bus (org.webauthsession.Broker).",
        discussion: """
            Normally started by D-Bus activation (scripts/install installs the .service file and a \
            systemd user unit); the interface is docs/dbus/org.webauthsession.Broker1.xml. Its \
            accounts are webauth's profiles. An app may use the accounts it signed in; any other \
            account only after the person allowed it (a window asks, once; with no display the \
            answer is no). --grant, --forget and --grants manage those answers from a terminal, \
            in $XDG_CONFIG_HOME/webauth/broker-consent.json (mode 0600). An app is its Flatpak app \
            ID or its snap ("snap.NAME"), else its executable's path (and an interpreter's script: \
            "/usr/bin/python3.11 /path/app.py"), as --grants lists them; a caller in a root or \
            mount namespace of its own that is neither is refused. This identifies an app, it does \
            not authenticate one. An account's requests and pages take the proxy, no_proxy, ca_file \
            and client_certificate of $XDG_CONFIG_HOME/webauth/config.json, else the route the \
            account's sign-in was made with, else the environment's, as webauth token does; a \
            saved client's secret or key is found as webauth token finds it. After an account's \
            sign-in, a web view waits in its profile, its web process started, for its next one.
            """)

    @Flag(help: "Accept a login script (the options script_content and script_fd) from callers: for tests and CI only. Its secrets are read from memory: every variable but the session's (XDG_*, DISPLAY, PATH, the locale, the proxy...) leaves the broker's environment.")
    var allowScripts = false

    @Option(help: ArgumentHelp("Leave after this many seconds with nothing in flight.", valueName: "seconds"))
    var idleTimeout: Int = 600

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Allow APP to use ACCOUNT, then exit.", valueName: "app account"))
    var grant: [String] = []

    @Option(help: ArgumentHelp("Forget every answer about APP (it is asked again), then exit.", valueName: "app"))
    var forget: String?

    @Flag(help: "List the answers (app, account, allowed or denied), then exit.")
    var grants = false

    func validate() throws {
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be a positive number of seconds") }
        guard grant.isEmpty || grant.count == 2 else { throw ValidationError("--grant takes two values: the app and the account") }
    }

    func run() async throws {
        try await reportingFailures(ifInterrupted: "the broker stopped; its requests in flight were cancelled") {
            let consent = ConsentStore(environment: CommandEnvironment.original)
            do {
                if grant.count == 2 {
                    if CallerApplication.namesInterpreterAlone(grant[0]) {
                        FileHandle.standardError.write(Data("""
                            Warning: \(grant[0]) is an interpreter: this allows every program it runs without a script file of its \
                            own (code on its command line, a module, standard input) to use \(grant[1]). A script is granted as \
                            "\(grant[0]) /path/to/script", as --grants lists it.\n
                            """.utf8))
                    }
                    return try consent.record(ConsentAnswer(app: grant[0], account: grant[1], allowed: true))
                }
                if let forget { return print("forgot \(try consent.forget(app: forget)) answers about \(forget)") }
                if grants { return try consent.answers().forEach { print("\($0.app)\t\($0.account)\t\($0.allowed ? "allowed" : "denied")") } }
            } catch {
                throw CommandFailure(.localFailure, "\(error)")
            }
            // A login script's secrets are read from memory: they leave the environment before GTK starts.
            if allowScripts { CommandEnvironment.withholdSecrets(ScriptEnvironment.withheld(from: CommandEnvironment.original)) }
            var broker = BrokerConfiguration(environment: CommandEnvironment.original)
            broker.allowsScripts = allowScripts
            broker.idleTimeout = .seconds(idleTimeout)
            // The configuration file is checked now, so that a mistake in it stops the broker at start.
            _ = try NetworkSettings.unflagged(config: nil, environment: CommandEnvironment.original)
            broker.route = Self.route
            broker.clientAuthentication = Self.clientAuthentication
            // An account's next sign-in starts in a view made ahead of time in its profile: its web process is running.
            do { try WebAuthEngine.configure(EngineConfiguration(prewarmsProfileWindows: true)) } catch { throw CommandFailure(.localFailure, "\(error)") }
            try? await WebAuthEngine.prepareEnvironment(headless: false)  // before the bus's threads run (see EngineHeadStart)
            do { try await Broker.run(broker) } catch { throw CommandFailure(.localFailure, "\(error)") }
            // SIGTERM cancelled the broker, which left: the process exits 143 with its one line.
            try Task.checkCancellation()
        }
    }

    /// The route of an account whose sign-in was saved with `saved`, found as `webauth token
    /// --profile NAME` finds it: the default configuration file's keys, else `saved`, else the
    /// environment the broker started with.
    @Sendable static func route(_ saved: SavedRoute?) throws(ReportedFailure) -> BrokerRoute {
        do throws(CommandFailure) {
            let network = try NetworkSettings.unflagged(config: nil, saved: saved, environment: CommandEnvironment.original)
            return BrokerRoute(proxy: network.proxy, caFile: network.caFile, clientCertificate: network.clientCertificate, saved: network.saved)
        } catch {
            throw ReportedFailure(error.status, error.message, advice: error.advice)
        }
    }

    /// How a saved client authenticates, found as `webauth token --profile NAME` finds it: the
    /// secret or key where the saved sign-in says (an environment variable of the broker's start,
    /// a file, a PKCS#11 token with `WEBAUTH_PKCS11_PIN`).
    @Sendable static func clientAuthentication(_ client: SavedClient?) throws(ReportedFailure) -> ClientAuthentication {
        guard let given = try? ClientSecretOptions.parse([]) else { throw ReportedFailure(.localFailure, "the client secret options cannot be set up") }
        do throws(CommandFailure) { return try given.resolve(for: client, environment: CommandEnvironment.original) } catch {
            throw ReportedFailure(error.status, error.message, advice: error.advice)
        }
    }
}
