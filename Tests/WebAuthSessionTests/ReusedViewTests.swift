import CWebKitGTK
import Foundation
import OpenIDConnect
import TestSupport
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// A ``SignInPool`` place that keeps its web view (``ReusableView``): two visitors sign in to
    /// `visitor_site.py` one after the other in the same view, and the second finds nothing of the first.
    @Suite("A pool place's kept web view")
    struct ReusedViews {
        /// One request `visitor_site.py` logged.
        struct Request: Decodable {
            let path: String
            let port: Int
            let cookie: String
            let authorization: Bool
        }

        static func requests(_ site: PythonFixtureServer) throws -> [Request] {
            let lines = try String(contentsOf: site.workdir.appendingPathComponent("requests.log"), encoding: .utf8).split(separator: "\n")
            return try lines.map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
        }

        /// The page (`webkit_web_view_get_page_id`) the place would lend now, after waiting for it.
        static func pageID(of place: ReusableView) async -> UInt? {
            await place.prepare()
            return await Task { @WebKitActor in place.lend().map { webkit_web_view_get_page_id($0) } }.value
        }

        /// A session at `path` in `place`'s view.
        static func session(_ path: String, at site: PythonFixtureServer, in place: ReusableView) throws -> WebAuthenticationSession {
            var options = TestEngine.options()
            options.reusableView = place
            return try TestEngine.session(site.url(path), redirectURI: "com.example:/cb", options: options)
        }

        static func signIn(_ path: String, at site: PythonFixtureServer, in place: ReusableView) async throws -> RedirectCallback {
            try await session(path, at: site, in: place).start()
        }

        /// The next visitor, with no credentials to give, at `path` in `place`'s view: asked for them in `realm`, it fails.
        static func expectAskedAnew(_ path: String, realm: String, at site: PythonFixtureServer, in place: ReusableView) async throws {
            let next = try session(path, at: site, in: place)
            await #expect(throws: WebAuthenticationError.httpAuthenticationFailed(host: "127.0.0.1", realm: realm)) {
                try await HTTPAuthentication.signIn(next, credentials: nil)
            }
        }

        @Test("the second visitor in the same view finds no cookie (HttpOnly too), window name, storage, database, cached image, connection or history entry of the first")
        func nothingSurvives() async throws {
            let site = try await PythonFixtureServer(script: "visitor_site")
            let place = ReusableView()
            let view = try #require(await Self.pageID(of: place))
            let first = try await Self.signIn("/first", at: site, in: place)
            #expect(first["error"] == nil)
            // What the first visitor left, as it saw it: the second must not find it.
            #expect(first["databases"] == "visitor")
            #expect(first["historyAfter"] == String(Int(first["history"] ?? "0")! + 2))
            let afterFirst = try Self.requests(site)
            // These views cache nothing over HTTP (an ephemeral session has no disk cache, the document-viewer
            // cache model keeps no unused resource in memory): if that changes, the second visitor's count tells.
            #expect(afterFirst.count { $0.path == "/cached.gif" } == 2)
            #expect(Set(afterFirst.map(\.port)).count < afterFirst.count, "the first visitor's requests shared kept-alive connections")
            #expect(await Self.pageID(of: place) == view, "the second visitor gets the same view")

            let second = try await Self.signIn("/second", at: site, in: place)
            #expect(second["error"] == nil)
            #expect(second["cookie"] == "")
            #expect(second["name"] == "")
            #expect(second["local"] == "")
            #expect(second["session"] == "")
            #expect(second["databases"] == "")
            #expect(second["history"] == first["history"], "history.length: the first visitor's entries are gone")
            let afterSecond = try Self.requests(site).dropFirst(afterFirst.count)
            #expect(afterSecond.allSatisfy { $0.cookie.isEmpty }, "no cookie reached the server, HttpOnly included")
            #expect(afterSecond.count { $0.path == "/cached.gif" } == 1, "the image came from the server, not a cache")
            #expect(Set(afterSecond.map(\.port)).isDisjoint(with: afterFirst.map(\.port)), "no connection of the first visitor served the second")
        }

        /// `visitor_site.py` sends `Cross-Origin-Opener-Policy: same-origin`, as Django does: WebKit's
        /// default would move each such page into a new web process (125–230 ms a sign-in, and the kept
        /// process lost). The engine's views switch COOP off (``PageConstruction``): the visitor's page
        /// stays in the view's web process, whose page identifier WebKit changes with each swap.
        @Test("a page sent with Cross-Origin-Opener-Policy, after a redirect sent with it, stays in the kept view's web process")
        func noProcessSwapForCOOP() async throws {
            let site = try await PythonFixtureServer(script: "visitor_site")
            let place = ReusableView()
            let view = try #require(await Self.pageID(of: place))
            let visit = try await Self.signIn("/to-second", at: site, in: place)
            #expect(visit["error"] == nil)
            #expect(await Self.pageID(of: place) == view, "the page stayed in the view's web process")
        }

        /// WebKit keeps HTTP credentials in the view's network session, which no clearing of
        /// website data reaches: the place lets go of a view that holds some. `/basic`: the login
        /// script answered the page's 401; `/xhr-first`: the page gave them to an `XMLHttpRequest`,
        /// which WebKit sends without asking anyone.
        @Test("a view that holds HTTP credentials is not lent again: the next visitor is asked anew, and fails without them",
              arguments: [("/basic", "/basic", "Basic area"), ("/xhr-first", "/xhr-basic", "XHR area")])
        func notAfterCredentials(first: String, protected: String, realm: String) async throws {
            let site = try await PythonFixtureServer(script: "visitor_site")
            let place = ReusableView()
            let view = await Self.pageID(of: place)
            let alice = HTTPAuthenticationCredentials(username: "alice", password: .environment("SITE_PASSWORD"))
            let callback = try await HTTPAuthentication.signIn(Self.session(first, at: site, in: place), credentials: alice)
            #expect(callback["reached"] == "basic" || callback["status"] == "200")
            #expect(await Self.pageID(of: place) != view, "the place made a new view")
            try await Self.expectAskedAnew(protected, realm: realm, at: site, in: place)
            #expect(try Self.requests(site).count { $0.path == protected && $0.authorization } == 1, "only the first visitor's request carried them")
        }

        /// Credentials in a URL or in a redirect's `Location`: WebKit answers the server's 401 with them
        /// itself (the page sees the final answer, and no `authenticate`), keeps them for the
        /// session, and sends them to the next visitor's request unasked (as after a redirect to
        /// `http://u1:pw@…/auth/x`). Each way a page has WebKit send them (`visitor_site.py`'s
        /// `LEAVES`): the place lets go of the view, and the next visitor is asked anew.
        @Test("a view whose page sent credentials from a URL or a redirect's Location is not lent again: the next visitor is asked anew",
              arguments: ["redirect-image", "redirect-fetch", "redirect-xhr", "worker-redirect", "image", "iframe", "stylesheet", "event-source", "form"])
        func notAfterCredentialsInURLs(how: String) async throws {
            let site = try await PythonFixtureServer(script: "visitor_site")
            let place = ReusableView()
            let view = await Self.pageID(of: place)
            let first = try await Self.signIn("/leave?how=\(how)", at: site, in: place)
            #expect(first["left"] == "seen" || first["reached"] == "auth", "WebKit sent the credentials")
            #expect(await Self.pageID(of: place) != view, "the place made a new view")
            try await Self.expectAskedAnew("/auth/x", realm: "Auth area", at: site, in: place)
            #expect(try Self.requests(site).filter { $0.path.hasPrefix("/auth/x") }.map(\.authorization).suffix(2) == [true, false],
                    "the first visitor's last request carried them, the next visitor's did not")
        }

        /// A shared worker's requests reach no signal of the view, so no ``LastingStateWatch`` sees its
        /// redirect to `http://u1:pw@…/auth/x`: a kept view has no `SharedWorker`, and the next visitor is asked anew.
        @Test("a kept view has no SharedWorker, whose requests no watch sees: the next visitor is asked anew")
        func noSharedWorker() async throws {
            let site = try await PythonFixtureServer(script: "visitor_site")
            let place = ReusableView()
            let view = await Self.pageID(of: place)
            let first = try await Self.signIn("/leave?how=shared-worker-redirect", at: site, in: place)
            #expect(first["error"]?.contains("SharedWorker") == true, "the page found no SharedWorker")
            #expect(await Self.pageID(of: place) == view, "the place kept its view")
            try await Self.expectAskedAnew("/auth/x", realm: "Auth area", at: site, in: place)
        }

        /// A service worker's registration outlives `webkit_website_data_manager_clear` (WebKitGTK 2.50):
        /// the place lets go of a view whose page fetched a service worker's script.
        @Test("a view whose page registered a service worker is not lent again: the next visitor finds none")
        func notAfterServiceWorker() async throws {
            let site = try await PythonFixtureServer(script: "visitor_site")
            let place = ReusableView()
            let view = await Self.pageID(of: place)
            #expect(try await Self.signIn("/sw-first", at: site, in: place)["workers"] == "1")
            #expect(await Self.pageID(of: place) != view, "the place made a new view")
            let second = try await Self.signIn("/second", at: site, in: place)
            #expect(second["workers"] == "0")
            #expect(second["controlled"] == "no")
        }

        /// `resource-load-started` does not see a WebSocket's handshake, so a `LastingState` cannot
        /// come from one: WebKit answers the handshake's 401 with the URL's credentials, and keeps
        /// nothing of them for the session's next requests.
        @Test("credentials in a WebSocket URL are used for its handshake and not kept: the view is lent again, and the next visitor is asked anew")
        func webSocketCredentialsNotKept() async throws {
            let site = try await PythonFixtureServer(script: "visitor_site")
            let place = ReusableView()
            let view = await Self.pageID(of: place)
            #expect(try await Self.signIn("/ws-first", at: site, in: place)["status"] == "closed")
            #expect(await Self.pageID(of: place) == view, "the place kept its view")
            try await Self.expectAskedAnew("/xhr-basic", realm: "XHR area", at: site, in: place)
            let requests = try Self.requests(site).filter { $0.path == "/xhr-basic" }
            #expect(requests.map(\.authorization) == [false, true, false], "the handshake, its answer with the credentials, the next visitor's request without")
        }
    }
}
