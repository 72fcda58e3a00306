import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// The contract's errors, as real callers get them: a method's D-Bus error, or a request's
/// `Response` 2 with `error`, `error_name` and `exit_status`; and the broker stays up after each.
@Suite("Broker: errors by the contract's names, bad input, the contract file", .startsWebKit(minutes: 5))
struct BrokerErrorTests {
    let webauth = WebAuthBinary()

    @Test("wrong types, unknown options, a bad parent window, a new account without a provider, another client, a token in use: InvalidArgument")
    func invalidArguments() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        let (provider, bus) = (fixture.provider, fixture.bus)
        defer { Task { await bus.stop() } }
        let misspelt = try await bus.call(["acount": .string("work")])
        #expect(misspelt["error_name"] == .string("org.webauthsession.Error.InvalidArgument")
                && misspelt["message"] == .string("unknown option 'acount' (did you mean 'account'?)"), "\(misspelt)")
        let wrongType = try await bus.call(["min_valid": .object(["int64": .number(5)])])
        #expect(wrongType["message"] == .string("option 'min_valid' must be of type u, not x"), "\(wrongType)")
        let wrongSignature = try await bus.call(method: "GetTokenWithAString")
        #expect(wrongSignature["error_name"] == .string("org.freedesktop.DBus.Error.InvalidArgs"), "GDBus checks the signature: \(wrongSignature)")
        for (parent, message) in [("x11:zz", "X11 window ID"), ("mir:1", "neither x11 nor wayland"), ("x11", "not a window identifier")] {
            let refused = try await bus.request(["issuer": .string(provider.issuer)], parent: parent)
            #expect(refused["error_name"] == .string("org.webauthsession.Error.InvalidArgument")
                    && refused["message"]?.stringValue?.contains(message) == true, "\(parent): \(refused)")
        }
        let newAccount = try await bus.request(["account": .string("new")])
        #expect(newAccount["response"]?.numberValue == 2 && newAccount["results"]?["error_name"] == .string("org.webauthsession.Error.InvalidArgument")
                && newAccount["results"]?["exit_status"]?.numberValue == 64
                && newAccount["results"]?["error"] == .string("the account 'new' is new: give the options issuer and client_id"), "\(newAccount)")
        var options = fixture.signInOptions(account: "work")
        let signedIn = try await bus.request(options)
        try #require(signedIn["response"]?.numberValue == 0, "\(signedIn)")
        options["client_id"] = .string("another-client")
        let otherClient = try await bus.request(options)
        #expect(otherClient["results"]?["error"]?.stringValue?.hasPrefix("the account 'work' is signed in with another client_id") == true, "\(otherClient)")
        let handle = try await bus.request(["handle_token": .string("no-dashes")])
        #expect(handle["message"]?.stringValue?.contains("'handle_token' must be 1 to 64 ASCII letters, digits or '_'") == true, "\(handle)")
        let alive = try await bus.gdbus("Get", ["org.webauthsession.Broker1", "Version"], interface: "org.freedesktop.DBus.Properties")
        #expect(alive.stdout == "(<uint32 1>,)\n", "the broker answers still: \(alive.stderr)")
    }

    @Test("a login script needs a broker started with --allow-scripts; no sign-in is NotSignedIn (6); a person's sign-in with no display is Failed (1)")
    func scriptsAndStatuses() async throws {
        let fixture = try await BrokerFixture.start(webauth, arguments: [])
        let (provider, bus) = (fixture.provider, fixture.bus)
        defer { Task { await bus.stop() } }
        let scripted = try await fixture.signIn("work")
        #expect(scripted["error_name"] == .string("org.webauthsession.Error.InvalidArgument")
                && scripted["message"] == .string("a login script (script_content, script_fd) needs a broker started with --allow-scripts (for tests and CI)"), "\(scripted)")
        let none = try await bus.call(["account": .string("nobody")])
        #expect(none["error_name"] == .string("org.webauthsession.Error.NotSignedIn"), "\(none)")
        let noDisplay = try await bus.request(["issuer": .string(provider.issuer), "client_id": .string("webauth-demo"), "account": .string("x")])
        #expect(noDisplay["response"]?.numberValue == 2 && noDisplay["results"]?["error_name"] == .string("org.webauthsession.Error.Failed")
                && noDisplay["results"]?["exit_status"]?.numberValue == 1
                && noDisplay["results"]?["error"]?.stringValue?.hasPrefix("sign-in failed: the broker has no display to show the sign-in window on") == true, "\(noDisplay)")
    }
}

extension BrokerErrorTests {
    @Test("a 10 MB option, a 10 MB option name, 1,000 GetToken calls at once: each gets its answer or an error, one refresh at most, the broker stays up, no token in its log")
    func badInputAndLoad() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        defer { Task { await fixture.bus.stop() } }
        try #require(try await fixture.signIn("work")["response"]?.numberValue == 0)
        #expect(try await webauth(["broker", "--grant", try fixture.bus.pythonApp(Self.load), "work"]).status == 0)
        let run = try await fixture.bus.python(Self.load)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout == """
            10 MB value: org.webauthsession.Error.InvalidArgument: option 'account' holds 10485760 bytes; at most 8192
            10 MB name: org.webauthsession.Error.InvalidArgument: an unknown option of 10485760 bytes (known: account, min_valid, resource, scopes)
            1000 calls: 1000 tokens, 1 distinct

            """, "\(run.stdout)")
        #expect(fixture.provider.refreshCount == 0, "fresh tokens served as they are")
        let alive = try await fixture.bus.gdbus("Get", ["org.webauthsession.Broker1", "Version"], interface: "org.freedesktop.DBus.Properties")
        #expect(alive.status == 0)
        #expect(fixture.provider.secretsSeen.allSatisfy { !fixture.bus.brokerLog.contains($0) }, "no token, code or password in the broker's log")
    }

    /// Sends the oversized options, then 1,000 GetToken calls before reading any answer.
    static let load = BrokerClient.common + """
        huge = "x" * (10 << 20)
        for label, options in (("10 MB value", {"account": GLib.Variant("s", huge)}), ("10 MB name", {huge: GLib.Variant("s", "work")})):
            try:
                call("GetToken", GLib.Variant("(a{sv})", (options,)))
                print(label + ": answered")
            except GLib.Error as error:
                e = error_of(error)
                print("%s: %s: %s" % (label, e["error_name"], e["message"]))
        loop, answers = GLib.MainLoop(), []
        def answered(connection, result, data):
            try: answers.append(connection.call_finish(result).unpack()[0]["access_token"])
            except GLib.Error as error: answers.append(error_of(error)["error_name"])
            if len(answers) == 1000: loop.quit()
        options = GLib.Variant("(a{sv})", ({"account": GLib.Variant("s", "work")},))
        for _ in range(1000):
            bus.call(BROKER, PATH, "org.webauthsession.Broker1", "GetToken", options, None, Gio.DBusCallFlags.NONE, 120000, None, answered, None)
        loop.run()
        tokens = [a for a in answers if not a.startswith("org.")]
        print("1000 calls: %d tokens, %d distinct" % (len(tokens), len(set(tokens))))
        """
}
