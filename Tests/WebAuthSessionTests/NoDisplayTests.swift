import Foundation
import OpenIDConnect
import TestSupport
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// With no display of the person's, a window or a kiosk is a typed error, not a window on
    /// an invisible X server; headless pages still get their private Xvfb.
    @Suite("No display for a person")
    struct NoDisplay {
        @Test("a window with neither DISPLAY nor WAYLAND_DISPLAY fails with noDisplayForWindow and starts no Xvfb; headless still works (in a child process)")
        func windowWithoutDisplay() async throws {
            await #expect(processExitsWith: .success) {
                unsetenv("DISPLAY")
                unsetenv("WAYLAND_DISPLAY")  // and the engine's configuration stays the default: .automatic
                let site = try await TestSite.start()
                let page = site.page(body: "<script>location.href = 'com.example:/cb?code=x'</script>")
                func signIn(_ presentation: WebAuthenticationOptions.Presentation) async throws(WebAuthenticationError) -> RedirectCallback {
                    var options = WebAuthenticationOptions()
                    options.presentation = presentation
                    return try await WebAuthenticationSession(url: page, redirectURI: try! RedirectURI("com.example:/cb"), options: options).start()
                }
                func refusal(_ presentation: WebAuthenticationOptions.Presentation) async -> WebAuthenticationError? {
                    do { _ = try await signIn(presentation); return nil } catch { return error }
                }
                func xvfbChildren() -> Int { ProcessTable().entries.values.count { $0.name == "Xvfb" && $0.parent == getpid() } }
                for presentation: WebAuthenticationOptions.Presentation in [.window(), .kiosk()] {
                    guard await refusal(presentation) == .noDisplayForWindow else { exit(3) }
                }
                guard getenv("DISPLAY") == nil, xvfbChildren() == 0 else { exit(5) }
                // A headless page needs no person: it gets a private Xvfb ...
                guard (try? await signIn(.headless))?["code"] == "x", xvfbChildren() == 1 else { exit(6) }
                // ... and a window still refuses to go to it: nobody could see it there.
                guard await refusal(.window()) == .noDisplayForWindow else { exit(7) }
                exit(0)
            }
            #expect("\(WebAuthenticationError.noDisplayForWindow)".contains("device authorization grant or the system browser"))
        }

        @Test("an Xvfb whose display has no socket file (an exiting server on that number deleted it) is stopped and another started, three times at most (in a child process)")
        func xvfbWithoutSocketFile() async {
            await #expect(processExitsWith: .success) {
                // A stand-in for Xvfb, first on PATH: it reports a display that has no socket file.
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fake-xvfb-\(getpid())")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let starts = folder.appendingPathComponent("starts")
                let display = 40_000 + Int(getpid() % 20_000)
                guard !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)") else { exit(2) }
                let script = folder.appendingPathComponent("Xvfb")
                try "#!/bin/sh\necho started >> \(starts.path)\necho \(display)\nexec sleep 300\n".write(to: script, atomically: true, encoding: .utf8)
                chmod(script.path, 0o755)
                setenv("PATH", folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), 1)
                do throws(NoDisplayReason) {
                    _ = try VirtualDisplay(XvfbScreen(width: 640, height: 480, offersGL: false))
                    exit(3)
                } catch {
                    guard error == .xvfbSocketMissing(display: ":\(display)") else { exit(4) }
                }
                let started = try String(contentsOf: starts, encoding: .utf8).split(separator: "\n").count
                guard started == 3 else { exit(5) }
                // Each was stopped and reaped: none of them is left.
                guard !ProcessTable().entries.values.contains(where: { $0.parent == getpid() }) else { exit(6) }
            }
        }
    }
}
