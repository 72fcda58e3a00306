import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    @Suite("Page scripting")
    struct PageScripting {
        /// A session on a page that never redirects by itself, running in a task.
        private func running(_ page: URL) throws -> (WebAuthenticationSession, Task<RedirectCallback, any Error>) {
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb")
            return (session, Task { try await session.start() })
        }

        @Test("JavaScript results come back as JSON")
        func evaluateReturnsJSON() async throws {
            let site = try await TestSite.start()
            let (session, run) = try running(site.page(title: "Values", body: "<p id='p'>hello</p>"))
            defer { session.cancel() }
            #expect(try await session.evaluateJavaScript("1 + 1") == .number(2))
            #expect(try await session.evaluateJavaScript("document.getElementById('p').textContent") == .string("hello"))
            #expect(try await session.evaluateJavaScript("({a: [true, null, 'x'], t: document.title})")
                == .object(["a": .array([.bool(true), .null, .string("x")]), "t": .string("Values")]))
            #expect(try await session.evaluateJavaScript("undefined") == .null)
            session.cancel()
            await #expect(throws: WebAuthenticationError.cancelled) { try await run.value }
        }

        @Test("a script that throws is a typed error carrying the message")
        func scriptThrows() async throws {
            let site = try await TestSite.start()
            let (session, _) = try running(site.page(body: ""))
            defer { session.cancel() }
            do {
                try await session.evaluateJavaScript("throw new Error('boom')")
                Issue.record("expected scriptFailed")
            } catch {
                guard case .scriptFailed(let message) = error else { throw error }
                #expect(message.contains("boom"))
            }
        }

        @Test("waitForElement sees an element added later, without polling")
        func waitForLateElement() async throws {
            let site = try await TestSite.start()
            let (session, _) = try running(site.page(body: """
                <script>setTimeout(() => { const b = document.createElement('button'); b.id = 'late'; document.body.append(b) }, 150)</script>
                """))
            defer { session.cancel() }
            try await session.waitForElement("#late")
            #expect(try await session.evaluateJavaScript("!!document.querySelector('#late')") == .bool(true))
        }

        @Test("waitForElement follows the page across a navigation, and waitForURL sees the new URL")
        func waitAcrossNavigation() async throws {
            let site = try await TestSite.start()
            let second = site.page(title: "Second", body: "<input id='password' type='password'>")
            let (session, _) = try running(site.page(body: "<a id='next' href='\(second.absoluteString)'>next</a>"))
            defer { session.cancel() }
            try await session.waitForElement("#next")
            try await session.evaluateJavaScript("document.getElementById('next').click()")
            try await session.waitForElement("#password")
            let url = try await session.waitForURL { $0 == second.absoluteString }
            #expect(url == second.absoluteString)
        }

        @Test("a wait that never comes true times out with the page it was on")
        func waitTimesOut() async throws {
            let site = try await TestSite.start()
            let page = site.page(body: "<p>no such element</p>")
            let (session, _) = try running(page)
            defer { session.cancel() }
            try await session.waitForText("no such element")  // the page first: the short wait below is for the element alone
            do {
                try await session.waitForElement("#missing", timeout: .milliseconds(300))
                Issue.record("expected a timeout")
            } catch {
                guard case .timedOut(let condition, _, let url) = error else { throw error }
                #expect(condition.contains("#missing"))
                #expect(url == page.absoluteString)
            }
        }

        @Test("scripts after the session ended fail with sessionEnded")
        func afterEnd() async throws {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.serve(.redirect(to: "com.example:/cb?code=1")), redirectURI: "com.example:/cb")
            _ = try await session.start()
            await #expect(throws: PageScriptError.sessionEnded) { try await session.evaluateJavaScript("1") }
        }

        @Test("a scripted login: wrong password shows an error, the right one gets the code")
        func scriptedLogin() async throws {
            let site = try await TestSite.start()
            let form: @Sendable (String) -> LocalHTTPResponse = { error in
                LocalHTTPResponse.html("""
                    <title>Sign in</title>\(error)
                    <form method='post'><input name='username' id='username'><input name='password' id='password' type='password'>
                    <button id='submit'>Sign in</button></form>
                    """)
            }
            let login = site.route { request in
                guard request.method == "POST" else { return form("") }
                let fields = Dictionary((try? FormURLEncoding.decode(request.body)) ?? [], uniquingKeysWith: { $1 })
                guard fields["username"] == "alice", fields["password"] == "correct horse" else {
                    return form("<p id='error'>Wrong user name or password.</p>")
                }
                return .redirect(to: "com.example:/cb?code=granted&state=s")
            }
            let session = try TestEngine.session(login, redirectURI: "com.example:/cb")
            // The script starts before the session does: its waits cover that too.
            let script = Task {
                let environment = ["WRONG": "wrong", "RIGHT": "correct horse"]
                try await LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("WRONG")),
                                       .click("#submit"), .waitForElement("#error"),
                                       .fill("#username", .literal("alice")), .fill("#password", .environment("RIGHT")),
                                       .click("#submit")]).run(in: session, environment: environment)
            }
            let callback = try await session.start()
            try await script.value
            #expect(callback["code"] == "granted")
            #expect(site.requests(to: login.path).filter { $0.method == "POST" }.count == 2)
        }
    }
}
