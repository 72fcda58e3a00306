import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// A broker started with `--allow-scripts` reads a login script's secrets from memory: WebKit's
/// processes under it inherit none of the script's variables (SecretGate lets none go there), as under
/// `webauth login --script`.
@Suite("Broker: a login script's variables stay out of WebKit's processes", .startsWebKit(minutes: 5))
struct BrokerScriptEnvironmentTests {
    let webauth = WebAuthBinary()

    @Test("mid-sign-in, with the password typed from the broker's memory, no web or network process under the broker holds a script variable or its value, nor the broker's own /proc/PID/environ")
    func webProcessesHoldNoScriptVariable() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        let bus = fixture.bus
        defer { Task { await bus.stop() } }
        let typed = webauth.home.appendingPathComponent("typed").path
        try #require(mkfifo(typed, 0o600) == 0)
        // The password is typed, then a command step says so through the FIFO; the page then waits.
        let script = try webauth.file("wait.yaml", """
            step_timeout: 600
            steps:
              - fill: "#username"
                value: alice
              - fill: "#password"
                env: ALICE_PASSWORD
              - fill: "#username"
                command: "echo typed > \(typed); echo alice"
              - wait_for: "#never"
            """)
        async let signIn = bus.request(["issuer": .string(fixture.provider.issuer), "client_id": .string("webauth-demo"), "account": .string("work"),
                                        "script_file": .string(script)])
        let reader = try ChildProcess("/bin/cat", [typed], environment: [:], stdout: .pipe)
        #expect(await reader.firstLine() == "typed", "the script got past the password: \(bus.brokerLog)")

        let owner = try await bus.run("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                         "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.webauthsession.Broker"])
        let broker = try #require(pid_t(owner.stdout.split(separator: " ").last?.filter(\.isNumber) ?? ""), "the broker's pid: \(owner.stdout) \(owner.stderr)")
        let children = ProcessTree.environments(under: broker)
        #expect(children.contains { $0.process.hasPrefix("WebKitWebProces") } && children.contains { $0.process.hasPrefix("WebKitNetworkPr") },
                "the web and network processes run: \(children.map(\.process))")
        for (process, environment) in children {
            #expect(!environment.contains("ALICE_PASSWORD="), "\(process) has the script's variable")
            #expect(!environment.contains(OpenIDProvider.User.alice.password), "\(process) has the password")
        }
        // The broker's own block, as a process viewer reads it: unsetenv leaves it as it was.
        // (Its text is never put in a message: it may hold the password.)
        let own = String(decoding: try #require(FileManager.default.contents(atPath: "/proc/\(broker)/environ")), as: UTF8.self)
        let (blanked, holdsPassword) = (own.contains("ALICE_PASSWORD=\0"), own.contains(OpenIDProvider.User.alice.password))
        #expect(blanked, "the withheld variable's name stays, its value is blanked")
        #expect(!holdsPassword, "the broker's own /proc/PID/environ holds the password")
        await bus.stop()  // the page waits for ever: the client ends with its bus
        _ = try await signIn
    }

    @Test("a script that reads a variable the broker keeps in its environment (the session's, such as XDG_*) is refused")
    func keptVariableRefused() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        let script = try webauth.file("kept.yaml", """
            steps:
              - fill: "#password"
                env: XDG_SESSION_PASSWORD
            """)
        let refused = try await fixture.bus.request(["issuer": .string(fixture.provider.issuer), "client_id": .string("webauth-demo"),
                                                     "script_file": .string(script)])
        #expect(refused["error_name"]?.stringValue == "org.webauthsession.Error.InvalidArgument"
                    && refused["message"]?.stringValue?.contains("$XDG_SESSION_PASSWORD") == true, "\(refused)")
    }
}
