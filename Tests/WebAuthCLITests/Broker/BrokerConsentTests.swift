import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// Who gets what: the app that signed an account in, the apps the person allowed (remembered, or
/// granted from a terminal), `webauth` itself; with no display, no one can be asked and the
/// answer is AccessDenied. A Flatpak app is known by its app ID.
@Suite("Broker: consent per app and account, --grant/--forget/--grants, Flatpak callers", .timeLimit(.minutes(5)))
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
        let socket = fixture.bus.address.replacingOccurrences(of: "unix:path=", with: "")
        // A root of its own on a tmpfs: the .flatpak-info is made there, never on this machine's root.
        let sandboxed = ["--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
                         "--symlink", "usr/bin", "/bin", "--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev",
                         "--bind", socket, socket, "--ro-bind", info, "/.flatpak-info", "--",
                         "/usr/bin/gdbus", "call", "--session", "--dest", "org.webauthsession.Broker", "--object-path", "/org/webauthsession/Broker",
                         "--method", "org.webauthsession.Broker1.GetToken", "{'account': <'work'>}"]
        let denied = try await fixture.bus.run("/usr/bin/bwrap", sandboxed)
        #expect(denied.stderr.contains("whether org.example.Flatpaked may use the account 'work'"), "\(denied.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/.flatpak-info"))
        #expect(try await webauth(["broker", "--grant", "org.example.Flatpaked", "work"]).status == 0)
        let granted = try await fixture.bus.run("/usr/bin/bwrap", sandboxed)
        #expect(granted.status == 0 && granted.stdout.contains("'access_token'"), "\(granted.stderr)")
        #expect(try await fixture.bus.gdbus("GetToken", ["{'account': <'work'>}"]).stderr.contains("AccessDenied"), "the grant is the app ID's, not gdbus's")
    }
}
