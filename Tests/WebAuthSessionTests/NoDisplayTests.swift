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
    }
}
