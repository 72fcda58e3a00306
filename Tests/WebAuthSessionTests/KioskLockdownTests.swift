import CWebKitGTK
import Foundation
import Testing
import TestSupport
@testable import WebAuthSession

extension EngineTests {
    /// What a kiosk keeps from the next visitor and from a curious one: the
    /// clipboard and primary selection a visitor filled, and GTK's inspector. Real input on the
    /// private Xvfb (xdotool), the selections read from outside the process (xclip).
    @Suite("Kiosk lockdown")
    struct KioskLockdown {
        /// A page with text to copy and a field that says when a key has reached it.
        static func page(_ site: TestSite) -> URL {
            site.page(body: "<p id='text' style='font-size:48px'>visitor-secret-7a3e</p><input id='sentinel' style='width:300px'>")
        }

        @Test("when a kiosk visitor's session ends, what they copied (CLIPBOARD) and selected (PRIMARY) is gone for the next")
        func clipboardClearedAtSessionEnd() async throws {
            let site = try await TestSite.start()
            let session = try TestEngine.session(Self.page(site), redirectURI: "com.example:/cb", options: KioskVisitor.kioskOptions())
            let run = Task { try await session.start() }
            try await session.waitForElement("#text")
            let window = try await XInput.window(of: session)
            let text = try await XInput.screenPoint(of: "#text", in: session)
            try await XInput.click(x: text.x, y: text.y)  // the page has the keyboard focus
            try await XInput.key("ctrl+a", window: window)
            try await XInput.key("ctrl+c", window: window)
            // The copy travels from the web process to this one: wait for it to be there (a
            // condition, each try a round trip to the X server), so the test shows it was.
            var copied = ""
            for _ in 0..<500 where !copied.contains("visitor-secret-7a3e") { copied = try await XInput.selection("clipboard") }
            #expect(copied.contains("visitor-secret-7a3e"), "the visitor's copy reached the clipboard")
            #expect(try await XInput.selection("primary").contains("visitor-secret-7a3e"), "and the selection is PRIMARY")

            session.cancel()  // the visitor's session ends (Escape, Start over, idle reset end it the same way)
            _ = try? await run.value
            #expect(try await XInput.selection("clipboard").isEmpty)
            #expect(try await XInput.selection("primary").isEmpty)
        }

        @Test("GTK's inspector stays shut on kiosk windows, with its keybinding on (a child process with that GSettings key)",
              .enabled(if: ProcessInfo.processInfo.environment["WEBAUTH_INSPECTOR_CHILD"] == nil))
        func inspectorStaysShut() async throws {
            let config = TemporaryFiles.path("inspector")
            let settings = config.appendingPathComponent("glib-2.0/settings")
            try FileManager.default.createDirectory(at: settings, withIntermediateDirectories: true)
            try "[org/gtk/settings/debug]\nenable-inspector-keybinding=true\ninspector-warning=false\n"
                .write(to: settings.appendingPathComponent("keyfile"), atomically: true, encoding: .utf8)
            var environment = ProcessInfo.processInfo.environment.filter { !["DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY", "GTK_DEBUG"].contains($0.key) }
            environment["GSETTINGS_BACKEND"] = "keyfile"
            environment["XDG_CONFIG_HOME"] = config.path
            environment["WEBAUTH_INSPECTOR_CHILD"] = "1"
            let child = try ChildProcess(CommandLine.arguments[0], ["--testing-library", "swift-testing", "--filter", "inspectorChild"],
                                         environment: environment, stdout: .pipe, stderr: .pipe)
            let output = String(decoding: await child.outputToEnd(), as: UTF8.self)
            let status = await child.exitStatus()
            #expect(status == 0 && output.contains("Test run with 1 test") && output.contains("passed"), "child: \(output.suffix(3000))")
        }

        /// ``inspectorStaysShut()``'s child: the inspector's keybinding is on here, so a popup
        /// window opens the inspector on Ctrl+Shift+D (the test could fail), and a kiosk window
        /// does not on Ctrl+Shift+I or Ctrl+Shift+D. An emission hook on `enable-debugging` says
        /// when each key has reached GTK's keybinding (it runs before any handler, the kiosk's too).
        @Test("(child) the inspector opens from a popup, never from a kiosk window",
              .enabled(if: ProcessInfo.processInfo.environment["WEBAUTH_INSPECTOR_CHILD"] != nil))
        func inspectorChild() async throws {
            let site = try await TestSite.start()
            var emissions = Self.keybindingEmissions.makeAsyncIterator()
            let popup = try TestEngine.session(Self.page(site), redirectURI: "com.example:/cb", options: TestEngine.options(.window()))
            let popupRun = Task { try await popup.start() }
            try await popup.waitForElement("#sentinel")  // the engine, and GTK, have started
            let hook = await Task { @WebKitActor in
                g_signal_add_emission_hook(g_signal_lookup("enable-debugging", gtk_window_get_type()), 0, { _, _, _, _ in
                    KioskLockdown.keybindingEmitted.yield()
                    return 1  // stay
                }, nil, nil)
            }.value
            try await XInput.key("ctrl+shift+d", window: try await XInput.window(of: popup))
            _ = await emissions.next()
            #expect(await Self.inspectorIsOpen(), "the keybinding is on in this process: a popup opens the inspector")
            await Task { @WebKitActor in gtk_window_set_interactive_debugging(0) }.value
            popup.cancel()
            _ = try? await popupRun.value

            let kiosk = try TestEngine.session(Self.page(site), redirectURI: "com.example:/cb", options: KioskVisitor.kioskOptions())
            let kioskRun = Task { try await kiosk.start() }
            defer { kiosk.cancel() }
            try await kiosk.waitForElement("#sentinel")
            let window = try await XInput.window(of: kiosk)
            for key in ["ctrl+shift+i", "ctrl+shift+d"] {
                try await XInput.key(key, window: window)
                _ = await emissions.next()  // the keybinding's emission has run (and GTK's handler, had it not been stopped)
                #expect(await !Self.inspectorIsOpen(), "no inspector from a kiosk window (\(key))")
            }
            let search = try ChildProcess("xdotool", ["search", "--onlyvisible", "--name", "GTK Inspector"],
                                          environment: ProcessInfo.processInfo.environment, stdout: .pipe, stderr: .null)
            let found = String(decoding: await search.outputToEnd(), as: UTF8.self)
            let searched = await search.exitStatus()
            #expect(found.isEmpty && searched == 1, "no window named GTK Inspector on the display")
            kiosk.cancel()
            _ = try? await kioskRun.value
            await Task { @WebKitActor in g_signal_remove_emission_hook(g_signal_lookup("enable-debugging", gtk_window_get_type()), hook) }.value
        }

        /// Each emission of `GtkWindow::enable-debugging` in this process, from ``inspectorChild()``'s hook.
        static let (keybindingEmissions, keybindingEmitted) = AsyncStream<Void>.makeStream()

        @Test("GTK_DEBUG loses interactive and all (they open the inspector at gtk_init) and keeps the rest", arguments: [
            ("interactive", nil), ("all", nil), ("keybindings:interactive", "keybindings"), ("Interactive, actions;modules", "actions,modules"),
            ("modules", "modules"),
        ] as [(String, String?)])
        func gtkDebugVariable(value: String, kept: String?) {
            #expect(GTKDebugVariable.withoutInspector(value) == kept)
        }

        /// Whether a GTK Inspector window is showing in this process.
        static func inspectorIsOpen() async -> Bool {
            await Task { @WebKitActor in WebAuthSession.KioskLockdown.isInspectorOpen }.value
        }
    }
}
