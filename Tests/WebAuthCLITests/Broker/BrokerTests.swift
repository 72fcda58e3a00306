import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth broker` on a private session bus, D-Bus activated, driven by real clients: the
/// docs/broker.md's three (gdbus, Python with python3-gi, C with GIO compiled here), and the tests' own
/// Python client for every result and error. Sign-ins run the development provider's real pages
/// with a login script (the broker is started with --allow-scripts), off screen: the bus has no display.
@Suite("Broker: sign-in, tokens and accounts over the session bus", .startsWebKit(minutes: 5))
struct BrokerTests {
    let webauth = WebAuthBinary()

    @Test("docs/broker.md's clients: Python and C sign in and get the same token again; gdbus gets a token and lists only what it may use")
    func readmeClients() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        let (provider, bus, script) = (fixture.provider, fixture.bus, fixture.script)
        defer { Task { await bus.stop() } }
        let options = ["issuer=\(provider.issuer)", "client_id=webauth-demo", "script=\(script)"]

        let python = try await bus.python(try Guides.block(after: "<!-- broker python -->", language: "python"), options + ["account=work"])
        #expect(python.status == 0, "stderr: \(python.stderr)\nbroker: \(bus.brokerLog)")
        #expect(python.stdout.contains("signed in to \(provider.issuer) as ") && python.stdout.contains("(account work)"), "\(python.stdout)")
        #expect(python.stdout.contains("GetToken gives the same token: True"), "\(python.stdout)")

        let source = try webauth.file("sign_in.c", try Guides.block(after: "<!-- broker c -->", language: "c"))
        let program = webauth.home.appendingPathComponent("sign_in").path
        let compiled = try await bus.run("/bin/sh", ["-c", "cc -Wall -o \(program) \(source) $(pkg-config --cflags --libs gio-2.0)"])
        try #require(compiled.status == 0, "cc: \(compiled.stderr)")
        let c = try await bus.run(program, options + ["account=c"])
        #expect(c.status == 0, "stderr: \(c.stderr)\nbroker: \(bus.brokerLog)")
        #expect(c.stdout.contains("(account c); the access token expires at ") && c.stdout.contains("GetToken gives the same token: yes"), "\(c.stdout)")

        let granted = try await webauth(["broker", "--grant", "/usr/bin/gdbus", "work"])
        #expect(granted.status == 0, "stderr: \(granted.stderr)")
        let shell = try webauth.file("gdbus.sh", try Guides.block(after: "<!-- broker gdbus -->"))
        let gdbus = try await bus.run("/bin/sh", ["-e", shell])
        #expect(gdbus.status == 0, "stderr: \(gdbus.stderr)")
        #expect(gdbus.stdout.contains("'access_token': <'") && gdbus.stdout.contains("'account': <'work'>"), "\(gdbus.stdout)")
        #expect(!gdbus.stdout.contains("'c'") && !gdbus.stdout.contains("'access_token': <'\(provider.issuer)"), "only the granted account is listed: \(gdbus.stdout)")
        #expect(provider.secretsSeen.allSatisfy { !bus.brokerLog.contains($0) }, "no token, code or password in the broker's log")
    }

    @Test("docs/broker.md's clients with no display and no script: the broker's one line, said once, offering only what SignIn can do")
    func readmeClientsWithoutDisplay() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        let (provider, bus) = (fixture.provider, fixture.bus)
        defer { Task { await bus.stop() } }
        let said = "sign-in failed: the broker has no display to show the sign-in window on (it started without DISPLAY or WAYLAND_DISPLAY): "
            + "run it in the person's graphical session, or, for tests and CI, start it with --allow-scripts and pass a login script "
            + "(script_content or script_fd)\n"
        let python = try await bus.python(try Guides.block(after: "<!-- broker python -->", language: "python"),
                                          ["issuer=\(provider.issuer)", "client_id=webauth-demo", "account=python"])
        // Before: "sign-in failed: sign-in failed: no display to show the sign-in window on (...): sign in with the
        // device authorization grant or the system browser, or headless for a script", two things SignIn cannot do.
        #expect(python.status == 1 && python.stderr == said, "stderr: \(python.stderr)")
        let source = try webauth.file("sign_in.c", try Guides.block(after: "<!-- broker c -->", language: "c"))
        let program = webauth.home.appendingPathComponent("sign_in").path
        let compiled = try await bus.run("/bin/sh", ["-c", "cc -Wall -o \(program) \(source) $(pkg-config --cflags --libs gio-2.0)"])
        try #require(compiled.status == 0, "cc: \(compiled.stderr)")
        let c = try await bus.run(program, ["issuer=\(provider.issuer)", "client_id=webauth-demo", "account=c"])
        #expect(c.status == 1 && c.stderr == said, "stderr: \(c.stderr)")
    }

    @Test("a Secret Service that answers but cannot take a sign-in (a bare dbus-run-session's gnome-keyring, no login keyring): each goes to its file, said once; with a display, no keyring prompt stops the sign-in",
          arguments: [false, true])
    func keyringRefusalSaidOnce(display: Bool) async throws {
        var webauth = webauth
        webauth.environment["HOME"] = webauth.home.path  // gnome-keyring's control folder goes under ~/.cache
        // With a display, gnome-keyring asks the person to create a keyring when something is saved into its default
        // collection: the broker saved there, and the sign-in waited on that window until its timeout.
        let fixture = try await BrokerFixture.start(webauth, display: display, machineServices: true)
        defer { Task { await fixture.bus.stop() } }
        for account in ["first", "second"] {
            var options = fixture.signInOptions(account: account)
            options["timeout"] = .number(60)  // a prompt fails the sign-in in a minute, not the request's five
            let signedIn = try await fixture.bus.request(options)
            #expect(signedIn["response"]?.numberValue == 0, "\(signedIn)\n\(fixture.bus.brokerLog)")
            #expect(FileManager.default.fileExists(atPath: webauth.home.appendingPathComponent("state/webauthsession/\(account).json").path),
                    "\(account) is saved in its file")
        }
        // Before: one warning per save.
        let warnings = fixture.bus.brokerLog.components(separatedBy: "the keyring could not save the sign-in").count - 1
        #expect(warnings == 1, "\(fixture.bus.brokerLog)")
    }

    @Test("Response goes to the caller alone: another connection subscribed to the request's Response receives nothing, though a broadcast reaches it")
    func unicastResponse() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        let (provider, bus, script) = (fixture.provider, fixture.bus, fixture.script)
        defer { Task { await bus.stop() } }
        let run = try await bus.python(Self.eavesdropper, [provider.issuer, script])
        #expect(run.status == 0, "stderr: \(run.stderr)\nbroker: \(bus.brokerLog)")
        #expect(run.stdout == "caller: 0\nother connection: nothing\nother connection, a broadcast: 1\n", "\(run.stdout)")
    }

    /// Two connections: the caller signs in; the other subscribes (a match rule, as any client
    /// would) to Response on the caller's handle. Once the caller has its Response, the other makes
    /// a round trip to the bus (a signal routed to it before would arrive first) and reports what it
    /// got; then a third connection broadcasts a signal of the same kind, which does reach it.
    static let eavesdropper = """
        import sys
        from gi.repository import Gio, GLib
        issuer, script = sys.argv[1], sys.argv[2]
        caller = Gio.DBusConnection.new_for_address_sync(Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION),
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
        other = Gio.DBusConnection.new_for_address_sync(Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION),
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
        handle = "/org/webauthsession/Broker/request/%s/eaves" % caller.get_unique_name()[1:].replace(".", "_")
        loop, got = GLib.MainLoop(), {"caller": [], "other": []}
        def heard(who):
            def on(*signal):
                got[who].append(signal[5].unpack()[0])
                if who == "caller": loop.quit()
            return on
        caller.signal_subscribe(None, "org.webauthsession.Request1", "Response", handle, None, Gio.DBusSignalFlags.NONE, heard("caller"), None)
        other.signal_subscribe(None, "org.webauthsession.Request1", "Response", handle, None, Gio.DBusSignalFlags.NONE, heard("other"), None)
        options = {"issuer": GLib.Variant("s", issuer), "client_id": GLib.Variant("s", "webauth-demo"), "script_content": GLib.Variant("s", open(script).read()),
                   "account": GLib.Variant("s", "eaves"), "handle_token": GLib.Variant("s", "eaves")}
        caller.call_sync("org.webauthsession.Broker", "/org/webauthsession/Broker", "org.webauthsession.Broker1", "SignIn",
                         GLib.Variant("(sa{sv})", ("", options)), None, Gio.DBusCallFlags.NONE, -1, None)
        loop.run()
        other.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", None, None, Gio.DBusCallFlags.NONE, -1, None)
        context = GLib.MainContext.default()
        while context.pending(): context.iteration(False)
        print("caller: %d" % got["caller"][0])
        print("other connection: %s" % (got["other"] or "nothing"))
        third = Gio.DBusConnection.new_for_address_sync(Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION),
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
        third.emit_signal(None, handle, "org.webauthsession.Request1", "Response", GLib.Variant("(ua{sv})", (1, {})))
        third.flush_sync(None)
        other.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", None, None, Gio.DBusCallFlags.NONE, -1, None)
        while context.pending(): context.iteration(False)
        print("other connection, a broadcast: %d" % len(got["other"]))
        """

    @Test("what the session bus cannot promise: dbus-monitor of the same user sees a Response's and GetToken's tokens; behind Flatpak's proxy it may neither monitor nor eavesdrop")
    func monitoredBus() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        let bus = fixture.bus
        defer { Task { await bus.stop() } }
        // The bus's policy is the stock session bus's (eavesdrop="true"); BecomeMonitor is the
        // bus user's whatever the policy says.
        let monitor = try ChildProcess("/usr/bin/dbus-monitor", ["--address", bus.address], environment: ["PATH": "/usr/bin:/bin"], stdout: .pipe)
        defer { monitor.signal(SIGKILL) }
        while let line = await monitor.firstLine(), !line.contains("member=NameLost") {}  // the bus took it for a monitor
        let signedIn = try await fixture.signIn("work")
        let token = try #require(signedIn["results"]?["access_token"]?.stringValue, "\(signedIn)")
        #expect(try await webauth(["broker", "--grant", "/usr/bin/gdbus", "work"]).status == 0)
        try #require(try await bus.gdbus("GetToken", ["{'account': <'work'>}"]).stdout.contains(token))
        var message = "", seen: Set<String> = []
        while !seen.isSuperset(of: ["Response", "GetToken reply"]), let line = await monitor.firstLine() {
            if !line.hasPrefix(" ") { message = line } else if line.contains("\"\(token)\"") {
                seen.insert(message.hasPrefix("signal ") && message.hasSuffix("member=Response") ? "Response"
                            : message.hasPrefix("method return ") ? "GetToken reply" : message)
            }
        }
        #expect(seen == ["Response", "GetToken reply"], "the monitor saw the access token in: \(seen)")
        let proxied = try await bus.python(Self.proxiedMonitor, [bus.address, webauth.home.appendingPathComponent("proxy").path])
        #expect(proxied.stdout == "BecomeMonitor: org.freedesktop.DBus.Error.AccessDenied\nAddMatch eavesdrop=true: org.freedesktop.DBus.Error.AccessDenied\n",
                "\(proxied.stdout) \(proxied.stderr)")
    }

    /// A client behind xdg-dbus-proxy with `--filter`, as Flatpak puts an app's session bus (the
    /// proxy writes a byte to `--fd` once it listens): it asks to become a monitor and to eavesdrop.
    static let proxiedMonitor = """
        import os, subprocess, sys
        from gi.repository import Gio, GLib
        address, path = sys.argv[1], sys.argv[2]
        ready, listening = os.pipe()
        proxy = subprocess.Popen(["xdg-dbus-proxy", address, path, "--filter", "--fd=%d" % listening], pass_fds=[listening])
        os.close(listening)
        os.read(ready, 1)
        app = Gio.DBusConnection.new_for_address_sync("unix:path=" + path,
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
        for name, method, arguments in (("BecomeMonitor", "BecomeMonitor", GLib.Variant("(asu)", ([], 0))),
                                        ("AddMatch eavesdrop=true", "AddMatch", GLib.Variant("(s)", ("eavesdrop=true",)))):
            try:
                app.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method, arguments,
                              None, Gio.DBusCallFlags.NONE, -1, None)
                print("%s: allowed" % name)
            except GLib.Error as error:
                print("%s: %s" % (name, Gio.DBusError.get_remote_error(error)))
        os.close(ready)
        proxy.wait()
        """

    @Test("accounts are webauth's profiles: a broker sign-in is webauth token's profile, a webauth login is GetToken's account")
    func sharedWithTheCommandLine() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        let (provider, bus, script) = (fixture.provider, fixture.bus, fixture.script)
        defer { Task { await bus.stop() } }
        let signedIn = try await fixture.signIn("shared")
        #expect(signedIn["response"]?.numberValue == 0, "\(signedIn)\nbroker: \(bus.brokerLog)")
        let token = try await webauth(["token", "--profile", "shared"])
        #expect(token.status == 0 && token.stdout.trimmingCharacters(in: .newlines) == signedIn["results"]?["access_token"]?.stringValue,
                "the CLI reads the broker's sign-in: \(token.stderr)")

        let login = try await webauth(["login", "--profile", "cli", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless",
                                       "--script", script], environment: ["ALICE_PASSWORD": OpenIDProvider.User.alice.password])
        try #require(login.status == 0, "stderr: \(login.stderr)")
        let granted = try await webauth(["broker", "--grant", try bus.pythonApp(BrokerClient.call), "cli"])
        #expect(granted.status == 0, "stderr: \(granted.stderr)")
        let fromBroker = try await bus.call(["account": .string("cli")])
        let fromCLI = try await webauth(["token", "--profile", "cli"])
        #expect(fromBroker["results"]?["access_token"]?.stringValue == fromCLI.stdout.trimmingCharacters(in: .newlines), "\(fromBroker)")
        #expect(fromBroker["results"]?["subject"] == signedIn["results"]?["subject"] && fromBroker["results"]?["issuer"]?.stringValue == provider.issuer)
        #expect(provider.refreshCount == 0, "fresh tokens are served as they are")
    }
}
