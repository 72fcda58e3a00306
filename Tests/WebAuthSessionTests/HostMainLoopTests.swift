import CWebKitGTK
import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

/// A GTK application that runs its own main loop: the engine must run on it, not start its
/// own. Each test runs in a child process (an exit test), because a process has one GTK.
@Suite("A GTK application's own main loop", .timeLimit(.minutes(2)))
struct HostMainLoopTests {
    @Test("the engine runs on the host's GTK thread, and the sign-in window is transient for and modal to the host's window")
    func hostLoop() async {
        await #expect(processExitsWith: .success) {
            let (host, site, session, run) = try await Self.popupOverHost()
            defer { withExtendedLifetime(site) {} }

            let parentAddress = UInt(bitPattern: host.window)
            let (onHostThread, transientAndModal) = await Task { @WebKitActor in
                let list = gtk_window_list_toplevels()
                defer { g_list_free(list) }
                var found = false
                var node = list
                while let current = node {
                    let window = current.pointee.data.assumingMemoryBound(to: GtkWindow.self)
                    if UInt(bitPattern: gtk_window_get_transient_for(window)) == parentAddress, gtk_window_get_modal(window) != 0 {
                        found = true
                    }
                    node = current.pointee.next
                }
                return (pthread_equal(pthread_self(), GTKHostApplication.threadID.withLock { $0 }) != 0, found)
            }.value
            guard onHostThread else { exit(3) }
            guard transientAndModal else { exit(4) }
            guard EngineRuntime.shared.ownsMainLoop == false else { exit(5) }

            session.cancel()
            do { _ = try await run.value; exit(6) } catch WebAuthenticationError.cancelled {} catch { exit(7) }
            host.quit()
        }
    }

    @Test("the host destroys its window while the popup over it signs in: the sign-in ends as cancelled and nothing is left")
    func hostDestroysParent() async {
        await #expect(processExitsWith: .success) {
            let (host, site, session, run) = try await Self.popupOverHost()
            defer { withExtendedLifetime(site) {} }
            // GTK destroys the popup with its parent (destroy-with-parent), and the web view in it.
            await host.destroyWindow()
            do { _ = try await run.value; exit(3) } catch WebAuthenticationError.cancelled {} catch { exit(4) }
            guard await session.page == nil, await WebAuthEngine.diagnostics.liveWebViews == 0 else { exit(5) }
            host.quit()
        }
    }

    @Test("a GTK application signs in to the development provider through the popup over its window")
    func hostSignsIn() async {
        await #expect(processExitsWith: .success) {
            let host = try GTKHostApplication()
            let provider = try await OpenIDProvider.start()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            var options = WebAuthenticationOptions()
            options.parentWindow = ParentWindow(gtkWindow: host.window)
            options.timeout = .seconds(60)
            let script = LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("PASSWORD")),
                                      .click("#sign-in")])
            let result = try await client.signIn(options: options, script: { session in
                // The popup's header bar names the provider's host before anyone types.
                try await session.waitForElement("#password")
                let host = await session.page?.chrome?.host
                guard host == "127.0.0.1" else { exit(8) }
                try await script.run(in: session, environment: ["PASSWORD": OpenIDProvider.User.alice.password])
            })
            guard result.idToken.subject == OpenIDProvider.User.alice.subject else { exit(9) }
            guard await WebAuthEngine.diagnostics.liveWebViews == 0 else { exit(10) }
            host.quit()
        }
    }

    /// A GTK host application with a popup sign-in over its window, the popup's first page loaded
    /// (else the exit test ends with status 2).
    private static func popupOverHost() async throws
        -> (GTKHostApplication, TestSite, WebAuthenticationSession, Task<RedirectCallback, any Error>) {
        let host = try GTKHostApplication()
        let site = try await TestSite.start()
        var options = WebAuthenticationOptions()
        options.parentWindow = ParentWindow(gtkWindow: host.window)
        options.timeout = .seconds(60)
        let session = WebAuthenticationSession(url: site.page(title: "Sign in", body: "<p>waiting</p>"),
                                               redirectURI: try RedirectURI("com.example:/cb"), options: options)
        let recorder = EventRecorder(session)
        let run = Task { try await session.start() }
        guard await recorder.firstLoadFinished() != nil else { exit(2) }
        return (host, site, session, run)
    }
}
