import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// Who gets what: the app that signed an account in, the apps the person allowed (remembered, or
/// granted from a terminal), `webauth` itself; with no display, no one can be asked and the
/// answer is AccessDenied. A Flatpak app is known by its app ID; a caller in a root of its own
/// without one is refused; code on an interpreter's command line is no script's.
@Suite("Broker: consent per app and account, --grant/--forget/--grants, Flatpak callers", .startsWebKit(minutes: 5))
struct BrokerConsentTests {
    let webauth = WebAuthBinary()

    @Test("another app is denied with no display; --grant lets it in, --grants lists the answers, --forget takes it back; the file is 0600")
    func grantsFromATerminal() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        let bus = fixture.bus
        let signedIn = try await fixture.signIn("work")
        try #require(signedIn["response"]?.numberValue == 0, "\(signedIn)")
        let owner = try bus.pythonApp(BrokerClient.request)

        let denied = try await bus.gdbus("GetToken", ["{'account': <'work'>}"])
        #expect(denied.status != 0 && denied.stderr.contains("org.webauthsession.Error.AccessDenied: no one can be asked whether /usr/bin/gdbus may use the account 'work'"),
                "\(denied.stderr)")
        #expect(denied.stderr.contains("(the broker has no display to ask on); allow it from a terminal: webauth broker --grant '/usr/bin/gdbus' work")
                && !denied.stderr.contains("device"), "the refusal says how to grant, not how to sign in: \(denied.stderr)")
        #expect(try await bus.gdbus("ListAccounts").stdout == "(@aa{sv} [],)\n", "nothing listed that it may not use")

        #expect(try await webauth(["broker", "--grant", "/usr/bin/gdbus", "work"]).status == 0)
        let granted = try await bus.gdbus("GetToken", ["{'account': <'work'>}"])
        #expect(granted.status == 0 && granted.stdout.contains("'access_token': <'\(signedIn["results"]?["access_token"]?.stringValue ?? "-")'>"),
                "\(granted.stderr)")
        let listed = try await webauth(["broker", "--grants"])
        #expect(listed.stdout == "/usr/bin/gdbus\twork\tallowed\n\(owner)\twork\tallowed\n", "\(listed.stdout)")

        let forgot = try await webauth(["broker", "--forget", "/usr/bin/gdbus"])
        #expect(forgot.stdout == "forgot 1 answers about /usr/bin/gdbus\n")
        #expect(try await bus.gdbus("GetToken", ["{'account': <'work'>}"]).stderr.contains("org.webauthsession.Error.AccessDenied"))

        let file = webauth.home.appendingPathComponent("config/webauth/broker-consent.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test("the owner signs out: the refresh token is revoked, the provider's session ended, the sign-in gone for webauth too")
    func ownerSignsOut() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        try #require(try await fixture.signIn("work")["response"]?.numberValue == 0)
        let signedOut = try await fixture.bus.request(["account": .string("work")], method: "SignOut")
        #expect(signedOut["response"]?.numberValue == 0, "\(signedOut)\n\(fixture.bus.brokerLog)")
        #expect(signedOut["results"] == .object(["account": .string("work"), "provider_session_ended": .bool(true), "refresh_token_revoked": .bool(true)]))
        #expect(fixture.provider.liveRefreshTokenCount == 0)
        #expect(try await webauth(["token", "--profile", "work"]).status == 6, "signed out for webauth too")
        let again = try await fixture.bus.call(["account": .string("work")])
        #expect(again["error_name"] == .string("org.webauthsession.Error.NotSignedIn"), "\(again)")
    }

    @Test("a Flatpak app (a .flatpak-info in its own mount namespace, bwrap) is its app ID: denied until granted by that ID")
    func flatpakCaller() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        try #require(try await fixture.signIn("work")["response"]?.numberValue == 0)
        let info = try webauth.file("flatpak-info", "[Application]\nname=org.example.Flatpaked\nruntime=runtime/org.example.Platform/x86_64/1\n")
        let sandboxed = Self.sandbox(fixture.bus, flatpakInfo: info, gdbusAt: "/usr/bin/gdbus")
        let denied = try await fixture.bus.run("/usr/bin/bwrap", sandboxed)
        #expect(denied.stderr.contains("whether org.example.Flatpaked may use the account 'work'"), "\(denied.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/.flatpak-info"))
        #expect(try await webauth(["broker", "--grant", "org.example.Flatpaked", "work"]).status == 0)
        let granted = try await fixture.bus.run("/usr/bin/bwrap", sandboxed)
        #expect(granted.status == 0 && granted.stdout.contains("'access_token'"), "\(granted.stderr)")
        #expect(try await fixture.bus.gdbus("GetToken", ["{'account': <'work'>}"]).stderr.contains("AccessDenied"), "the grant is the app ID's, not gdbus's")
    }

    @Test("a caller in a root of its own (bwrap) with no valid .flatpak-info is refused, never named by the granted path it shows", arguments: [
        ("oversized", "[Application]\nname=org.example.Flatpaked\n" + String(repeating: "#", count: 70_000), "its .flatpak-info is larger than 64 KiB"),
        ("runtime only", "[Runtime]\nname=org.example.Platform\n", "its .flatpak-info names no app ([Application] name=)"),
        ("a path for a name", "[Application]\nname=/opt/granted-tool\n", "its .flatpak-info names no valid app ID"),
        ("none", nil, "it runs in a root or mount namespace other than the broker's and is neither a Flatpak app (no .flatpak-info) nor a confined snap"),
    ] as [(String, String?, String)])
    func sandboxWithoutIdentity(_ name: String, flatpakInfo: String?, reason: String) async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        try #require(try await fixture.signIn("work")["response"]?.numberValue == 0)
        // The app granted is a host path; the sandbox shows that path for its own program (gdbus, bound there).
        #expect(try await webauth(["broker", "--grant", "/opt/granted-tool", "work"]).status == 0)
        let info = try flatpakInfo.map { try webauth.file("flatpak-info-\(UUID().uuidString.prefix(8))", $0) }
        let attack = try await fixture.bus.run("/usr/bin/bwrap", Self.sandbox(fixture.bus, flatpakInfo: info, gdbusAt: "/opt/granted-tool"))
        #expect(attack.status != 0 && !attack.stdout.contains("access_token"), "\(name): \(attack.stdout)")
        #expect(attack.stderr.contains("org.webauthsession.Error.AccessDenied: the caller (process ")
                && attack.stderr.contains(") cannot be identified: \(reason)"), "\(name): \(attack.stderr)")
    }

    /// bwrap's arguments for gdbus's GetToken of `work` from a root of its own on a tmpfs (so
    /// nothing is made on this machine's root), with `flatpakInfo` as its `/.flatpak-info` and
    /// gdbus at `gdbusAt` (its `/proc/PID/exe`).
    static func sandbox(_ bus: BrokerBus, flatpakInfo: String?, gdbusAt path: String) -> [String] {
        let socket = bus.address.replacingOccurrences(of: "unix:path=", with: "")
        return ["--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
                "--symlink", "usr/bin", "/bin", "--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev", "--bind", socket, socket]
            + (flatpakInfo.map { ["--ro-bind", $0, "/.flatpak-info"] } ?? [])
            + (path == "/usr/bin/gdbus" ? [] : ["--ro-bind", "/usr/bin/gdbus", path])
            + ["--", path, "call", "--session", "--dest", "org.webauthsession.Broker", "--object-path", "/org/webauthsession/Broker",
               "--method", "org.webauthsession.Broker1.GetToken", "{'account': <'work'>}"]
    }

    @Test("code on an interpreter's command line is not the script after it: python3 -cCODE owner.py is python3 alone, denied")
    func codeBeforeAScript() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        try #require(try await fixture.signIn("work")["response"]?.numberValue == 0)
        let owner = try fixture.bus.pythonScript(BrokerClient.request)
        // The code drops the owner's script from its argv and calls GetToken as the tests' client does;
        // written without a space, so that `-cCODE` is one option cluster.
        let code = Data(("import sys\ndel sys.argv[1]\n" + BrokerClient.call).utf8).map { String(format: "%02x", $0) }.joined()
        let attack = try await fixture.bus.run("/usr/bin/python3", ["-cexec(bytes.fromhex('\(code)'))", owner, "GetToken", #"{"account": "work"}"#])
        let interpreter = try FileManager.default.destinationOfSymbolicLink(atPath: "/usr/bin/python3")
        #expect(attack.stdout.contains("AccessDenied") && attack.stdout.contains("whether /usr/bin/\(interpreter) may use the account 'work'"),
                "\(attack.stdout) \(attack.stderr)")
        #expect(!attack.stdout.contains("access_token"))
    }

    @Test("--grant of a bare interpreter warns that it grants whatever that interpreter runs without a script")
    func grantingAnInterpreter() async throws {
        let interpreter = try await webauth(["broker", "--grant", "/usr/bin/python3.11", "work"])
        #expect(interpreter.status == 0 && interpreter.stderr.contains("Warning: /usr/bin/python3.11 is an interpreter"), "\(interpreter.stderr)")
        let script = try await webauth(["broker", "--grant", "/usr/bin/python3.11 /home/me/tool.py", "work"])
        #expect(script.status == 0 && script.stderr.isEmpty, "\(script.stderr)")
        #expect(try await webauth(["broker", "--grants"]).stdout
                == "/usr/bin/python3.11\twork\tallowed\n/usr/bin/python3.11 /home/me/tool.py\twork\tallowed\n")
    }
}
