import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth token` and the credential helpers with a broker running on the session bus: they get
/// the token from it, never start one, and read the saved sign-in themselves when the broker cannot
/// serve the request. To tell where a token came from, the commands run with a state folder of
/// their own: what the broker's store holds, theirs does not, and the other way round.
@Suite("Broker: webauth token and the credential helpers through a running broker", .startsWebKit(minutes: 5))
struct BrokeredTokenTests {
    let webauth = WebAuthBinary()

    /// The commands' own state folder (their saved sign-ins), apart from the broker's.
    var commandState: URL { webauth.home.appendingPathComponent("command-state") }

    /// Runs `webauth arguments` as a client of `bus` with its own state folder, `input` on stdin.
    func command(_ bus: BrokerBus, _ arguments: [String], input: String = "", environment: [String: String] = [:]) async throws -> WebAuthBinary.Run {
        try await bus.run("/bin/sh", ["-c", #"printf %s "$0" | "$@""#, input, WebAuthBinary.binary.path] + arguments,
                          environment: ["XDG_STATE_HOME": commandState.path].merging(environment) { $1 })
    }

    /// Copies the broker's saved sign-in of `account` into the commands' state folder as `name`.
    func copySignIn(_ account: String, as name: String) throws {
        let folder = commandState.appendingPathComponent("webauthsession")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: webauth.home.appendingPathComponent("state/webauthsession/\(account).json"),
                                         to: folder.appendingPathComponent("\(name).json"))
    }

    /// How many tokens the broker has given `webauth` itself for `account`.
    func tokensToWebauth(_ bus: BrokerBus, account: String) -> Int {
        bus.brokerLog.components(separatedBy: "a token of the account '\(account)' went to webauth").count - 1
    }

    /// A broker on its bus (stop it) with the account `work` signed in by the tests' client, and its access token.
    func brokerWithWork() async throws -> (BrokerFixture, String) {
        let fixture = try await BrokerFixture.start(webauth)
        let signedIn = try await fixture.signIn("work")
        let token = signedIn["results"]?["access_token"]?.stringValue
        if token == nil { await fixture.bus.stop() }
        return (fixture, try #require(token, "\(signedIn)\nbroker: \(fixture.bus.brokerLog)"))
    }

    @Test("token, git-credential, docker-credential and kubernetes-credential get the account's token from the broker (their own store has none), which knows them as webauth")
    func throughTheBroker() async throws {
        let (fixture, token) = try await brokerWithWork()
        let bus = fixture.bus
        defer { Task { await bus.stop() } }
        try webauth.configure(#"{"credential_hosts": {"git.example.com": "work", "registry.example.com": "work"}}"#)

        let alone = try await webauth(["token", "--profile", "work"], environment: ["XDG_STATE_HOME": commandState.path])
        #expect(alone.status == 6, "without the bus the commands' own store has no sign-in: \(alone.stderr)")

        let printed = try await command(bus, ["token", "--profile", "work"])
        #expect(printed.status == 0 && printed.stdout == token + "\n", "stderr: \(printed.stderr)\nbroker: \(bus.brokerLog)")
        let shortcut = try await command(bus, ["token", "--profile", "work"], environment: ["LD_DEBUG": "libs"])
        #expect(shortcut.stdout == token + "\n" && shortcut.stderr.contains("calling init:") && !shortcut.stderr.contains("libsoup"),
                "webauth's shortcut asked the broker itself: webauth-tokens, which links libsoup, never ran: \(shortcut.stderr.suffix(600))")
        let json = try await command(bus, ["token", "--profile", "work", "--format", "json", "--min-valid", "30"])
        #expect((try? JSONValue(parsing: json.stdout))?["access_token"]?.stringValue == token, "stderr: \(json.stderr)")
        let git = try await command(bus, ["git-credential", "get"], input: "protocol=https\nhost=git.example.com\n\n")
        #expect(git.status == 0 && git.stdout.contains("password=\(token)\n"), "stderr: \(git.stderr)")
        let docker = try await command(bus, ["docker-credential", "get"], input: "https://registry.example.com")
        #expect(docker.status == 0 && (try? JSONValue(parsing: docker.stdout))?["Secret"]?.stringValue == token, "stderr: \(docker.stderr)")
        let kubernetes = try await command(bus, ["kubernetes-credential", "--profile", "work"], environment: [
            "KUBERNETES_EXEC_INFO": #"{"apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}}"#])
        let credential = try? JSONValue(parsing: kubernetes.stdout)
        #expect(kubernetes.status == 0 && credential?["status"]?["token"]?.stringValue == token, "stderr: \(kubernetes.stderr)")
        #expect(credential?["status"]?["expirationTimestamp"]?.stringValue != nil, "the expiry comes with the broker's token: \(kubernetes.stdout)")

        #expect(tokensToWebauth(bus, account: "work") == 6, "six tokens went to webauth itself, no question asked: \(bus.brokerLog)")
        #expect(fixture.provider.secretsSeen.allSatisfy { !bus.brokerLog.contains($0) }, "no token in the broker's log")
    }

    @Test("the broker's answer is the command's: an account the broker has not is exit 6 though the command's own store has it")
    func brokersAnswerCounts() async throws {
        let (fixture, _) = try await brokerWithWork()
        let bus = fixture.bus
        defer { Task { await bus.stop() } }
        try copySignIn("work", as: "mine")
        let local = try await webauth(["token", "--profile", "mine"], environment: ["XDG_STATE_HOME": commandState.path])
        #expect(local.status == 0, "the command's own store has 'mine': \(local.stderr)")

        let asked = try await command(bus, ["token", "--profile", "mine"])
        #expect(asked.status == 6 && asked.stdout.isEmpty && asked.stderr.contains("no saved sign-in named 'mine'"),
                "the broker said NotSignedIn: \(asked.status) \(asked.stderr)")
    }

    @Test("a broker that cannot serve the request (its copy of the sign-in is unreadable: Failed) leaves the command to its own store")
    func fallsBackWhenTheBrokerCannotServe() async throws {
        let (fixture, token) = try await brokerWithWork()
        let bus = fixture.bus
        defer { Task { await bus.stop() } }
        try copySignIn("work", as: "damaged")
        try "not a sign-in".write(to: webauth.home.appendingPathComponent("state/webauthsession/damaged.json"), atomically: true, encoding: .utf8)

        let printed = try await command(bus, ["token", "--profile", "damaged"])
        #expect(printed.status == 0 && printed.stdout == token + "\n", "stderr: \(printed.stderr)\nbroker: \(bus.brokerLog)")
        #expect(bus.brokerLog.contains("GetToken from") && bus.brokerLog.contains("org.webauthsession.Error.Failed"), "the broker was asked: \(bus.brokerLog)")
    }

    @Test("no broker running: the command reads its store and never starts one (NO_AUTO_START), though the bus could activate it")
    func neverStartsTheBroker() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        let bus = fixture.bus
        defer { Task { await bus.stop() } }
        let login = try await webauth(["login", "--profile", "work", "--issuer", fixture.provider.issuer, "--client-id", "webauth-demo", "--headless",
                                       "--script", fixture.script],
                                      environment: ["ALICE_PASSWORD": OpenIDProvider.User.alice.password, "XDG_STATE_HOME": commandState.path])
        try #require(login.status == 0, "stderr: \(login.stderr)")

        let printed = try await command(bus, ["token", "--profile", "work"])
        #expect(printed.status == 0 && !printed.stdout.isEmpty, "stderr: \(printed.stderr)")
        let owner = try await bus.run("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                         "--method", "org.freedesktop.DBus.NameHasOwner", "org.webauthsession.Broker"])
        #expect(owner.stdout == "(false,)\n", "no broker was started: \(owner.stdout) \(owner.stderr)\nbroker: \(bus.brokerLog)")
    }
}
