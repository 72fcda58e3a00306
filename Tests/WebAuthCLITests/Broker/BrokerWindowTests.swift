import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// What a person sees, on an Xvfb of the test's own: the sign-in window transient for and modal
/// to the caller's X11 window (read back with xprop), closed when its caller disconnects; and the
/// question another app's request raises, answered with the keyboard (xdotool, through XTEST).
@Suite("Broker: the popup on the caller's window, the consent question", .startsWebKit(minutes: 5))
struct BrokerWindowTests {
    let webauth = WebAuthBinary()

    /// A caller's window (python3-xlib): prints its ID in hexadecimal, then the ID of the next
    /// top-level window mapped (not GTK's override-redirect helpers), then `closed` when that one
    /// goes; it lives until killed.
    static let callerWindow = """
        from Xlib import X, display
        d = display.Display()
        root = d.screen().root
        root.change_attributes(event_mask=X.SubstructureNotifyMask)
        window = root.create_window(0, 0, 640, 480, 0, d.screen().root_depth)
        window.set_wm_name("the caller's window")
        window.map()
        d.sync()
        print("%x" % window.id, flush=True)
        popup = None
        while True:
            event = d.next_event()
            if event.type == X.MapNotify and popup is None and event.window.id != window.id and not event.override:
                popup = event.window.id
                print("%x" % popup, flush=True)
            elif event.type in (X.UnmapNotify, X.DestroyNotify) and popup is not None and event.window.id == popup:
                print("closed", flush=True)
        """

    /// A caller's window on Wayland (GTK 3, in C): exported with xdg-foreign once mapped; prints
    /// the handle, then lives until killed.
    static let waylandCallerWindow = """
        #include <gtk/gtk.h>
        #include <gdk/gdkwayland.h>
        #include <stdio.h>
        static void exported(GdkWindow *window, const char *handle, gpointer data) { printf("%s\\n", handle); fflush(stdout); }
        static gboolean mapped(GtkWidget *widget, GdkEvent *event, gpointer data) {
            gdk_wayland_window_export_handle(gtk_widget_get_window(widget), exported, NULL, NULL);
            return FALSE;
        }
        int main(int argc, char **argv) {
            gtk_init(&argc, &argv);
            GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
            gtk_window_set_title(GTK_WINDOW(window), "the caller's window");
            gtk_window_set_default_size(GTK_WINDOW(window), 640, 480);
            g_signal_connect(window, "map-event", G_CALLBACK(mapped), NULL);
            gtk_widget_show_all(window);
            gtk_main();
        }
        """

    @Test("parent_window wayland:HANDLE on mutter (xdg-foreign): the popup is placed as a window transient for the caller's exported one; with no parent it is not")
    func transientForAWaylandCaller() async throws {
        let fixture = try await BrokerFixture.start(webauth)
        let bus = fixture.bus
        defer { Task { await bus.stop() } }
        let mutter = try await WaylandCompositor(.mutter(sessionBus: bus.address), width: 1024, height: 768)
        defer { Task { await mutter.stop() } }
        // As a desktop session does: the broker the bus starts next gets the compositor.
        let variables = mutter.environment.sorted { $0.key < $1.key }.map { "'\($0.key)': '\($0.value)'" }.joined(separator: ", ")
        let updated = try await bus.run("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                           "--method", "org.freedesktop.DBus.UpdateActivationEnvironment", "{\(variables)}"])
        try #require(updated.status == 0, "stderr: \(updated.stderr)")
        let source = try webauth.file("wayland-window.c", Self.waylandCallerWindow)
        let program = webauth.home.appendingPathComponent("wayland-window").path
        let compiled = try await bus.run("/bin/sh", ["-c", "cc -Wall -o \(program) \(source) $(pkg-config --cflags --libs gtk+-3.0)"])
        try #require(compiled.status == 0, "cc: \(compiled.stderr)")
        let caller = try ChildProcess(program, [], environment: webauth.baseEnvironment.merging(mutter.environment) { $1 }, stdout: .pipe)
        defer { Task { await caller.stop() } }
        let handle = try #require(await caller.firstLine(), "the caller's window was exported: \(mutter.log.suffix(2000))")

        let plain = try await bus.request(fixture.signInOptions(account: "plain"))
        #expect(plain["response"]?.numberValue == 0, "\(plain)\nbroker: \(bus.brokerLog)")
        #expect(!mutter.log.contains("over transient parent"), "with no parent, a window of its own")
        let parented = try await bus.request(fixture.signInOptions(account: "wayland"), parent: "wayland:\(handle)")
        #expect(parented["response"]?.numberValue == 0, "handle '\(handle)': \(parented)\nbroker: \(bus.brokerLog)")
        #expect(mutter.log.contains("Centered window W2 over transient parent"),
                "the third window (after the caller's and the first popup) is transient: \(mutter.log.components(separatedBy: "\n").filter { $0.contains("PLACEMENT") })")
    }

    @Test("parent_window x11:XID: the popup is transient for that window and modal (xprop); the caller's disconnection closes it; no such window is InvalidArgument")
    func transientForTheCaller() async throws {
        let fixture = try await BrokerFixture.start(webauth, display: true)
        defer { Task { await fixture.bus.stop() } }
        let environment = webauth.baseEnvironment.merging(fixture.bus.clientEnvironment) { $1 }
        let caller = try ChildProcess("/usr/bin/python3", [try webauth.file("window.py", Self.callerWindow)], environment: environment, stdout: .pipe)
        defer { Task { await caller.stop() } }
        let parent = try #require(await caller.firstLine())
        var options = fixture.signInOptions(account: "window")
        options["script_file"] = nil  // a person's sign-in: the window waits for them
        let client = try ChildProcess("/usr/bin/python3", [try fixture.bus.pythonScript(BrokerClient.request), "SignIn", "x11:\(parent)",
                                                           JSONValue.object(options).description], environment: environment)
        let popup = try #require(await caller.firstLine())
        let properties = try await fixture.bus.run("/usr/bin/xprop", ["-id", "0x" + popup, "WM_TRANSIENT_FOR", "_NET_WM_STATE"])
        #expect(properties.stdout.contains("WM_TRANSIENT_FOR(WINDOW): window id # 0x\(parent)"), "\(properties.stdout)\(properties.stderr)")
        #expect(properties.stdout.contains("_NET_WM_STATE_MODAL"), "\(properties.stdout)")
        await client.stop()
        #expect(await caller.firstLine() == "closed", "the caller left: its window closed")

        let missing = try await fixture.bus.request(fixture.signInOptions(account: "missing"), parent: "x11:1ffffff")
        #expect(missing["results"]?["error_name"] == .string("org.webauthsession.Error.InvalidArgument")
                && missing["results"]?["error"]?.stringValue?.contains("the parent window x11:1ffffff is not a window on this X11 display") == true,
                "\(missing)")
    }

    @Test("another app's GetToken asks the person; Allow answers with the token and is remembered; Deny is AccessDenied, and remembered too")
    func consentQuestion() async throws {
        let fixture = try await BrokerFixture.start(webauth, display: true)
        defer { Task { await fixture.bus.stop() } }
        let signedIn = try await fixture.signIn("work")
        try #require(signedIn["response"]?.numberValue == 0, "\(signedIn)")

        async let allowed = fixture.bus.gdbus("GetToken", ["{'account': <'work'>}"])
        try await answer(fixture.bus, "alt+a")
        #expect(try await allowed.stdout.contains("'access_token': <'\(signedIn["results"]?["access_token"]?.stringValue ?? "-")'>"))
        #expect(try await webauth(["broker", "--grants"]).stdout.contains("/usr/bin/gdbus\twork\tallowed\n"))
        #expect(try await fixture.bus.gdbus("GetToken", ["{'account': <'work'>}"]).status == 0, "remembered: no question this time")

        #expect(try await webauth(["broker", "--forget", "/usr/bin/gdbus"]).status == 0)
        async let denied = fixture.bus.gdbus("GetToken", ["{'account': <'work'>}"])
        try await answer(fixture.bus, "alt+d")
        #expect(try await denied.stderr.contains("org.webauthsession.Error.AccessDenied: the person did not allow /usr/bin/gdbus to use the account 'work'"))
        let again = try await fixture.bus.gdbus("GetToken", ["{'account': <'work'>}"])
        #expect(again.stderr.contains("AccessDenied") && again.stderr.contains("`webauth broker --grant` allows it"), "remembered: \(again.stderr)")
    }

    @Test("an Allow given while the account was signed out and signed in anew, as another person, by another app gives nothing of the new sign-in")
    func allowOutlivedBySignOut() async throws {
        let fixture = try await BrokerFixture.start(webauth, display: true)
        defer { Task { await fixture.bus.stop() } }
        try #require(try await fixture.signIn("work")["response"]?.numberValue == 0)
        // gdbus waits 25 s for an answer by default; the question stays up while two sign-ins run.
        async let asked = fixture.bus.run("/usr/bin/gdbus", ["call", "--session", "--timeout", "300", "--dest", "org.webauthsession.Broker",
                                                             "--object-path", "/org/webauthsession/Broker", "--method", "org.webauthsession.Broker1.GetToken",
                                                             "{'account': <'work'>}"])
        _ = try await fixture.bus.run("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "Allow access to your sign-in"])
        // While the question is on screen: the owner signs out, and another app signs the name in anew.
        #expect(try await fixture.bus.request(["account": .string("work")], method: "SignOut")["response"]?.numberValue == 0)
        let other = BrokerClient.request + "\n# another app\n"
        let password = try webauth.file("bob-password", OpenIDProvider.User.bob.password)
        var asBob = fixture.signInOptions(account: "work")
        asBob["script_file"] = nil
        asBob["script_content"] = .string("steps:\n  - {fill: \"#username\", value: bob}\n  - {fill: \"#password\", file: \(password)}\n"
            + "  - {press_enter: \"#password\"}\n")
        let anew = try await fixture.bus.python(other, ["SignIn", "", JSONValue.object(asBob).description])
        #expect(try JSONValue(parsing: anew.stdout)["response"]?.numberValue == 0, "\(anew.stdout)")
        try await answer(fixture.bus, "alt+a")
        let outcome = try await asked
        #expect(outcome.status != 0 && outcome.stderr.contains("AccessDenied: the account 'work' was signed in anew while the person was asked"),
                "\(outcome.stdout)\(outcome.stderr)")
    }

    /// Waits for the question's window, gives it the focus and presses `keys` (a button's mnemonic).
    private func answer(_ bus: BrokerBus, _ keys: String) async throws {
        let found = try await bus.run("/usr/bin/xdotool", ["search", "--sync", "--onlyvisible", "--name", "Allow access to your sign-in"])
        let window = try #require(found.stdout.split(separator: "\n").first.map(String.init), "\(found.stderr)")
        let pressed = try await bus.run("/usr/bin/xdotool", ["windowfocus", "--sync", window, "key", "--clearmodifiers", keys])
        #expect(pressed.status == 0, "\(pressed.stderr)")
    }
}
