import Foundation
import TestSupport
import Testing

/// The sign-in popup read as a screen reader reads it: `webauth demo --interactive` in a child
/// process on its own Xvfb (`xvfb-run`) and D-Bus session (`dbus-run-session`), where GTK's ATK
/// bridge publishes the window on the accessibility bus; a pyatspi script (python3-pyatspi)
/// walks the tree and prints each node's role, name and description as JSON.
@Suite("Accessibility (AT-SPI)", .startsWebKit(minutes: 2))
struct AccessibilityTests {
    let webauth = WebAuthBinary()

    /// One node of the accessible tree.
    struct Node: Decodable, Equatable {
        let role: String
        let name: String
        let description: String
    }

    /// Waits (on AT-SPI events) until the `webauth` application's tree holds a node named `name`,
    /// then prints the tree; after 60 s it prints what it has, so the test fails instead of hanging.
    static let walker = """
        import json, sys, pyatspi
        from gi.repository import GLib
        want = sys.argv[1]
        def walk(node, out, depth=0):
            if node is None or depth > 40: return
            try:
                out.append({"role": node.getRoleName(), "name": node.name or "", "description": node.description or ""})
                for i in range(node.childCount): walk(node.getChildAtIndex(i), out, depth + 1)
            except Exception: pass
        def tree():
            out = []
            for app in pyatspi.Registry.getDesktop(0):
                if app is not None and app.name == "webauth": walk(app, out)
            return out
        def check(*_):
            out = tree()
            if any(node["name"] == want for node in out):
                print(json.dumps(out)); sys.stdout.flush(); pyatspi.Registry.stop()
        def give_up():
            print(json.dumps(tree())); sys.stdout.flush(); pyatspi.Registry.stop()
        for event in ["object:property-change:accessible-name", "object:children-changed", "window:create", "object:state-changed:showing"]:
            pyatspi.Registry.registerEventListener(check, event)
        GLib.idle_add(lambda: (check(), False)[1])
        GLib.timeout_add_seconds(60, lambda: (give_up(), False)[1])
        pyatspi.Registry.start()
        """

    @Test("the popup's header names the host, the lock says the connection's state, and Cancel is a push button that says what it does")
    func popupHeader() async throws {
        let walker = try webauth.file("walk.py", Self.walker)
        // Debian's python3, where python3-pyatspi is installed (a pyenv python3 may come first in PATH).
        let script = try webauth.file("run.sh", """
            "$WEBAUTH" demo --interactive --timeout 90 2>/dev/null &
            /usr/bin/python3 "$1" "Connection not encrypted"
            kill $!
            """)
        let run = try await webauth.run(URL(fileURLWithPath: "/usr/bin/xvfb-run"), ["-a", "dbus-run-session", "--", "sh", script, walker],
                                        environment: ["WEBAUTH": WebAuthBinary.binary.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        // The tree is the last line (the AT-SPI registry daemon, started on demand, writes to stdout first).
        let tree = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let nodes = try JSONDecoder().decode([Node].self, from: Data(tree.utf8))
        #expect(nodes.contains(Node(role: "icon", name: "Connection not encrypted", description: "The connection is not encrypted")),
                "nodes: \(nodes)")
        #expect(nodes.contains { $0.role == "label" && $0.name == "127.0.0.1 — not encrypted" }, "the host")
        #expect(nodes.contains(Node(role: "push button", name: "Cancel", description: "Ends the sign-in and closes this window")))
    }
}
