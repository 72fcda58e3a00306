import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// D-Bus activation, the idle exit (made short with --idle-timeout) and what it must never lose:
/// a request in flight, or a sign-in.
@Suite("Broker: activation, idle exit, requests in flight", .startsWebKit(minutes: 5))
struct BrokerLifecycleTests {
    let webauth = WebAuthBinary()

    /// How many brokers the bus started: each logs `serving` once.
    func brokersStarted(_ bus: BrokerBus) -> Int {
        bus.brokerLog.components(separatedBy: "] serving org.webauthsession.Broker").count - 1
    }

    /// Waits until the broker's name has no owner: NameOwnerChanged, or no owner already.
    static let waitForExit = """
        from gi.repository import Gio, GLib
        bus, loop = Gio.bus_get_sync(Gio.BusType.SESSION), GLib.MainLoop()
        bus.signal_subscribe("org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus",
                             "org.webauthsession.Broker", Gio.DBusSignalFlags.NONE, lambda *s: s[5].unpack()[2] or loop.quit(), None)
        owned = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                              GLib.Variant("(s)", ("org.webauthsession.Broker",)), None, Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
        if owned: loop.run()
        print("left")
        """

    @Test("after --idle-timeout with nothing in flight the broker leaves; the next call activates a new one, which has the sign-in")
    func idleExit() async throws {
        let fixture = try await BrokerFixture.start(webauth, arguments: ["--allow-scripts", "--idle-timeout", "1"])
        defer { Task { await fixture.bus.stop() } }
        let signedIn = try await fixture.signIn("work")
        try #require(signedIn["response"]?.numberValue == 0, "\(signedIn)")
        let left = try await fixture.bus.python(Self.waitForExit)
        #expect(left.stdout == "left\n", "\(left.stderr)")
        #expect(try await webauth(["broker", "--grant", try fixture.bus.pythonApp(BrokerClient.call), "work"]).status == 0)
        let again = try await fixture.bus.call(["account": .string("work")])
        #expect(again["results"]?["access_token"] == signedIn["results"]?["access_token"], "the new broker has the sign-in: \(again)")
        #expect(brokersStarted(fixture.bus) == 2 && fixture.bus.brokerLog.contains("idle for 1 s: leaving"), "a second broker: \(fixture.bus.brokerLog)")
    }

    @Test("a sign-in longer than the idle timeout completes with the same broker, though another caller crashed meanwhile")
    func requestInFlight() async throws {
        let fixture = try await BrokerFixture.start(webauth, arguments: ["--allow-scripts", "--idle-timeout", "1"])
        defer { Task { await fixture.bus.stop() } }
        // The page waits three seconds for an element that never comes before it signs in: a slow person.
        let slow = try webauth.file("slow.yaml", "steps:\n  - {click: \"#never\", optional: true, optional_timeout: 3}\n"
            + LoginCommandTests.passwordScript.replacingOccurrences(of: "steps:\n", with: ""))
        var options = fixture.signInOptions(account: "slow")
        options["script_file"] = .string(slow)
        var others = fixture.signInOptions(account: "other")
        others["script_file"] = .string(slow)
        let bystander = try ChildProcess("/usr/bin/python3", [try fixture.bus.pythonScript(BrokerClient.request), "SignIn", "", JSONValue.object(others).description],
                                         environment: fixture.bus.webauth.baseEnvironment.merging(fixture.bus.clientEnvironment) { $1 }, stderr: .pipe)
        async let signedIn = fixture.bus.request(options)
        _ = await bystander.firstLine()  // "requested": its sign-in runs at the broker
        await bystander.stop()
        let outcome = try await signedIn
        #expect(outcome["response"]?.numberValue == 0, "\(outcome)\n\(fixture.bus.brokerLog)")
        let log = fixture.bus.brokerLog
        let released = try #require(log.range(of: "a token of the account 'slow' went to"))
        #expect(brokersStarted(fixture.bus) == 1 && log.range(of: "leaving")?.lowerBound ?? log.endIndex > released.lowerBound,
                "one broker, which left only after the sign-in: \(log)")
    }
}
