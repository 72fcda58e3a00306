import DevProvider
import Foundation
import OpenIDConnect
import Synchronization
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// A sign-in that cannot go on (a wrong password, an unknown client) fails at once and says
    /// why, instead of waiting out its timeout.
    @Suite("Pages that settle, and the provider's error pages")
    struct SettledPages {
        static let redirectURI = "com.example.webauth:/callback"

        @Test("a wrong password: the page settles after the last step, and the error quotes its alert")
        func wrongPassword() async throws {
            let provider = try await OpenIDProvider.start()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo", redirectURI: try RedirectURI(Self.redirectURI))
            let script = LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("WRONG")), .pressEnter("#password")],
                                     settleTimeout: .seconds(2))
            let shown = ShownSession()
            do {
                _ = try await client.signIn(options: TestEngine.options(timeout: .seconds(120))) { session in
                    shown.session.withLock { $0 = session }
                    try await script.run(in: session, environment: ["WRONG": "not-the-password-91ab"], artifactsDirectory: nil)
                }
                Issue.record("signed in with a wrong password")
            } catch {
                guard case .session(.pageSettled(let page, let after)) = error else { throw error }
                #expect(after == .seconds(2))
                #expect(page.message == "Wrong user name or password.")
                #expect(page.title == "Sign in to the development provider")
                #expect(page.url.hasPrefix(provider.issuer + "/authorize?") && page.url.contains("&state=<43>"), "redacted: \(page.url)")
                #expect(error.description.contains("says \"Wrong user name or password.\""), "\(error)")
                #expect(!error.description.contains("not-the-password-91ab"))
            }
            let snapshot = try #require(await shown.session.withLock { $0 }?.failureSnapshot, "the page is kept for artefacts")
            #expect(snapshot.visibleText?.contains("Wrong user name or password.") == true)
            #expect(snapshot.screenshotPNG.map { PNGImage($0) != nil } == true)
            #expect(snapshot.navigationLog.contains { $0.kind == .loadCommitted })
            #expect(await WebAuthEngine.diagnostics.liveWebViews == 0)
        }

        @Test("a settle watch asked for before the page exists (a script with no steps) still ends the sign-in when the page settles")
        func settleWatchBeforePage() async throws {
            let site = try await TestSite.start()
            let session = WebAuthenticationSession(url: site.page(title: "Sign out?", body: "<p>Do you want to sign out?</p>"),
                                                   redirectURI: try RedirectURI(Self.redirectURI), options: TestEngine.options(timeout: .seconds(60)))
            await session.failWhenSettled(after: .seconds(1))
            do {
                _ = try await session.start()
                Issue.record("the page sent no redirect, yet the session ended well")
            } catch {
                guard case .pageSettled(let page, _) = error else { throw error }
                #expect(page.title == "Sign out?")
            }
        }

        @Test("an unknown client ID: the provider's 400 page ends the sign-in at once with its status and text")
        func unknownClient() async throws {
            let provider = try await OpenIDProvider.start()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "nobody", redirectURI: try RedirectURI(Self.redirectURI))
            do {
                _ = try await client.signIn(options: TestEngine.options(timeout: .seconds(120)))
                Issue.record("signed in through an error page")
            } catch {
                guard case .session(.providerErrorPage(let status, let page)) = error else { throw error }
                #expect(status == 400)
                #expect(page.title == "Unknown client")
                #expect(page.message == "This application is not registered.")
                #expect(error.description.contains("HTTP 400") && error.description.contains("This application is not registered."))
            }
            #expect(await WebAuthEngine.diagnostics.liveWebViews == 0)
        }

        @Test("settle_time in a script file; 0 waits for the session's timeout")
        func settleTimeInYAML() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("script-\(UUID().uuidString).yaml")
            defer { try? FileManager.default.removeItem(at: file) }
            try "steps: []\n".write(to: file, atomically: true, encoding: .utf8)
            #expect(try LoginScript(contentsOfFile: file.path).settleTimeout == .seconds(10))
            try "settle_time: 2.5\nsteps: []\n".write(to: file, atomically: true, encoding: .utf8)
            #expect(try LoginScript(contentsOfFile: file.path).settleTimeout == .milliseconds(2500))
            try "settle_time: 0\nsteps: []\n".write(to: file, atomically: true, encoding: .utf8)
            #expect(try LoginScript(contentsOfFile: file.path).settleTimeout == nil)
            try "settle_time: -1\nsteps: []\n".write(to: file, atomically: true, encoding: .utf8)
            #expect(throws: LoginScriptFileError.self) { try LoginScript(contentsOfFile: file.path) }
        }
    }
}

/// The session a sign-in showed, kept to look at after it ended.
final class ShownSession: Sendable {
    let session = Mutex<WebAuthenticationSession?>(nil)
}
