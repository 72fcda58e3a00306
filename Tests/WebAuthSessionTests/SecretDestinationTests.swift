import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// Secrets a login script types go only to the provider's pages, and never through the page's
    /// JavaScript globals.
    @Suite("Where a login script types secrets")
    struct SecretDestinations {
        static let form = """
            <form onsubmit="event.preventDefault(); location.href = 'com.example:/cb?' + new URLSearchParams(new FormData(this))">
              <input id='user' name='user'><input id='secret' name='secret' type='password'>
            </form>
            """

        /// The start page sends the browser on to a page of another host (`localhost` instead of
        /// `127.0.0.1`): a phishing page in the provider's place.
        private func pageOnAnotherHost() async throws -> (start: URL, site: TestSite) {
            let site = try await TestSite.start()
            let elsewhere = site.page(body: Self.form).absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            return (site.page(body: "<script>location.href = \(js(elsewhere))</script>"), site)
        }

        @Test("a secret is not typed into a page of another host; a literal user name still is")
        func refusedElsewhere() async throws {
            let (start, _) = try await pageOnAnotherHost()
            let session = try TestEngine.session(start, redirectURI: "com.example:/cb")
            let run = Task { try await session.start() }
            let script = LoginScript([.waitForURL(containing: "localhost"), .fill("#user", .literal("alice")),
                                      .fill("#secret", .environment("CANARY"))], stepTimeout: .seconds(20))
            do {
                try await script.run(in: session, environment: ["CANARY": "canary-value-7f3e"], artifactsDirectory: nil)
                Issue.record("the secret was typed into another host's page")
            } catch {
                #expect(error.stepNumber == 3)
                #expect(error.reason.contains("to http://localhost:") && error.reason.contains("it is not the provider's host"), "\(error.reason)")
                #expect(!error.description.contains("canary-value-7f3e"))
            }
            #expect(try await session.evaluateJavaScript("document.getElementById('secret').value") == .string(""))
            #expect(try await session.evaluateJavaScript("document.getElementById('user').value") == .string("alice"))
            session.cancel()
            _ = await run.result
        }

        @Test("secret_hosts lets a script type into a host it names")
        func allowlisted() async throws {
            let (start, _) = try await pageOnAnotherHost()
            let session = try TestEngine.session(start, redirectURI: "com.example:/cb")
            let script = Task {
                try await LoginScript([.waitForURL(containing: "localhost"), .fill("#secret", .environment("CANARY")), .pressEnter("#secret")],
                                      secretHosts: ["LOCALHOST"]).run(in: session, environment: ["CANARY": "canary-value-7f3e"])
            }
            #expect(try await session.start()["secret"] == "canary-value-7f3e")
            try await script.value
        }

        @Test("YAML scripts name extra secret hosts")
        func yaml() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("script-\(UUID().uuidString).yaml")
            try "secret_hosts: [login.partner.example]\nsteps:\n  - click: '#go'\n".write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let script = try LoginScript(contentsOfFile: file.path)
            #expect(script.secretHosts == ["login.partner.example"])
        }

        /// On the old engine, fill ran in the page's world: a page that replaced the `value`
        /// setter (or any global the step used) read every secret typed.
        @Test("fill runs in an isolated world: the page's own globals never see the value")
        func isolatedWorld() async throws {
            let site = try await TestSite.start()
            let page = site.page(body: Self.form + """
                <script>
                  window.seen = [];
                  const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
                  Object.defineProperty(HTMLInputElement.prototype, 'value', {
                    get() { return native.get.call(this); },
                    set(v) { window.seen.push('setter:' + v); native.set.call(this, v); },
                  });
                  const query = document.querySelector.bind(document);
                  document.querySelector = (s) => { window.seen.push('query:' + s); return query(s); };
                  const stringify = JSON.stringify;
                  JSON.stringify = (v) => { window.seen.push('json'); return stringify(v); };
                </script>
                """)
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb")
            let run = Task { try await session.start() }
            try await LoginScript([.fill("#secret", .environment("CANARY")), .click("#user")])
                .run(in: session, environment: ["CANARY": "canary-value-7f3e"], artifactsDirectory: nil)
            #expect(try await session.evaluateJavaScript("window.seen") == .array([]))
            #expect(try await session.evaluateJavaScript("document.getElementById('secret').value") == .string("canary-value-7f3e"),
                    "the page still receives the value in its field, as it must to sign in")
            session.cancel()
            _ = await run.result
        }
    }
}
