import CWebKitGTK
import DevProvider
import Foundation
import OpenIDConnect
import Synchronization
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// Kiosk sign-in: locked to its hosts, full screen, reset when abandoned, nothing kept.
    @Suite("Kiosk")
    struct Kiosk {
        static func kioskOptions(idle: Duration = .seconds(120)) -> WebAuthenticationOptions {
            var options = TestEngine.options(.kiosk(KioskSettings(allowedHosts: [], idleTimeout: idle)))
            options.websiteData = .ephemeral
            return options
        }

        @Test("an off-list link, redirect and form target are each refused and logged; the page stays usable")
        func allowlist() async throws {
            let site = try await TestSite.start()
            let elsewhere = "http://localhost:\(site.server.port)"  // the same server, under a host not on the list
            let redirect = site.route { _ in .redirect(to: elsewhere + "/redirected") }
            let page = site.page(body: """
                <a id='link' href='\(elsewhere)/linked'>elsewhere</a>
                <a id='redirect' href='\(redirect.absoluteString)'>redirect</a>
                <form id='form' method='post' action='\(elsewhere)/posted'><input name='x' value='1'></form>
                """)
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: Self.kioskOptions())
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            for trigger in ["document.getElementById('link').click()", "document.getElementById('redirect').click()",
                            "document.getElementById('form').submit()"] {
                var index = await recorder.decisionCount
                try await session.evaluateJavaScript(trigger)
                var decision: NavigationDecision?
                repeat {  // skip the on-list hop before the redirect
                    decision = await recorder.decision(after: index)
                    index += 1
                } while decision?.verdict == .allowed
                #expect(decision?.verdict == .refused(.hostNotAllowed), "\(trigger): \(String(describing: decision))")
                #expect(decision?.url.hasPrefix(elsewhere) == true)
            }
            try await session.evaluateJavaScript("location.href = 'com.example:/cb?still=usable'")
            #expect(try await run.value["still"] == "usable")
            #expect(site.requests.allSatisfy { !$0.path.hasPrefix("/linked") && !$0.path.hasPrefix("/redirected") && !$0.path.hasPrefix("/posted") })
            let log = await session.navigationLog
            #expect(log.filter { $0.kind == .refused && $0.detail == "host not on the kiosk's allowlist" }.count == 3)
        }

        @Test("full screen without decorations")
        func fullScreen() async throws {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.page(body: "<p id='p'>kiosk</p>"), redirectURI: "com.example:/cb",
                                                 options: Self.kioskOptions())
            let run = Task { try await session.start() }
            defer { session.cancel() }
            try await session.waitForElement("#p")
            let geometry = await Task { @WebKitActor () -> (decorated: Bool, width: Int32, screen: Int32) in
                let window = session.page!.window!
                var area = GdkRectangle()
                gdk_monitor_get_geometry(gdk_display_get_monitor(gdk_display_get_default(), 0), &area)
                return (gtk_window_get_decorated(cwk_window(window)) != 0, gtk_widget_get_allocated_width(window), area.width)
            }.value
            #expect(!geometry.decorated)
            #expect(geometry.width == geometry.screen)
            session.cancel()
            _ = await run.result
        }

        @Test("the next visitor finds nothing of the last: cookies, local storage, cache, typed form values")
        func nothingRemains() async throws {
            let site = try await TestSite.start()
            let image = site.serve(LocalHTTPResponse(status: 200, headers: ["Content-Type": "image/svg+xml", "Cache-Control": "max-age=3600"],
                                                     body: "<svg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/>"))
            let page = site.route { _ in
                LocalHTTPResponse(status: 200, headers: ["Content-Type": "text/html", "Set-Cookie": "server=visitor; Max-Age=3600"], body: """
                    <img id='img' src='\(image.absoluteString)' onload='this.dataset.loaded = 1'><form><input id='name' name='name' autocomplete='name'></form>
                    <script>
                    const found = {cookie: document.cookie, storage: localStorage.getItem('visitor'), session: sessionStorage.getItem('visitor')};
                    document.cookie = 'script=visitor; max-age=3600'; localStorage.setItem('visitor', '1'); sessionStorage.setItem('visitor', '1');
                    window.found = found;
                    </script>
                    """)
            }
            for visitor in 1...2 {
                let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: Self.kioskOptions())
                let run = Task { try await session.start() }
                defer { session.cancel() }
                try await session.waitForElement("#img[data-loaded]")
                let found = try await session.evaluateJavaScript("JSON.stringify(window.found) + '|' + document.getElementById('name').value")
                // Only the cookie this very response set: none of the last visitor's.
                #expect(found == .string(#"{"cookie":"server=visitor","storage":null,"session":null}|"#), "visitor \(visitor) found \(found)")
                try await LoginScript([.fill("#name", .literal("Visitor \(visitor)"))]).run(in: session)
                try await session.evaluateJavaScript("location.href = 'com.example:/cb?done=1'")
                _ = try await run.value
            }
            #expect(site.requests(to: image.path).count == 2, "the second visitor's image came from the server, not a cache")
            #expect(site.requests(to: page.path).allSatisfy { $0.header("Cookie") == nil }, "no cookie was sent back")
        }

        @Test("a page that keeps reloading itself is still abandoned: only a person's input restarts the idle timer")
        func reloadingPageIsAbandoned() async throws {
            let site = try await TestSite.start()
            // Reloads every 100 ms against 5 s of idleness: many reloads fall inside the idle time
            // even when two busy cores slow each load down tenfold.
            let page = site.page(body: "<p>reloading</p><script>setTimeout(() => location.reload(), 100)</script>")
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: Self.kioskOptions(idle: .seconds(5)))
            let recorder = EventRecorder(session)
            await #expect(throws: WebAuthenticationError.abandoned(after: .seconds(5))) { try await session.start() }
            let loads = await recorder.all().count { if case .loadCommitted = $0 { true } else { false } }
            #expect(loads > 1, "the page reloaded while the idle timer ran (\(loads) loads)")
        }

        @Test("a visitor who walks away after a wrong password gets the start-again screen; the next signs in")
        func abandonedThenNextVisitor() async throws {
            let provider = try await OpenIDProvider.start()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            _ = TestEngine.options()  // the private Xvfb
            let kiosk = await KioskStation(client: client, settings: KioskSettings(allowedHosts: [], idleTimeout: .seconds(1)))
            let visitors = Visitors()
            let script: @Sendable (WebAuthenticationSession) async throws -> Void = { session in
                let visitor = visitors.next()
                let environment = ["WRONG": "nope", "RIGHT": OpenIDProvider.User.alice.password]
                try await LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment(visitor == 1 ? "WRONG" : "RIGHT")),
                                       .click("#sign-in")]).run(in: session, environment: environment)
                // Visitor 1 walks away from the error page; visitor 2 is signed in by the click.
            }
            let events = kiosk.events
            let pressTask = Task {
                var messages: [String] = []
                for await event in events {
                    guard case .startScreen(let message) = event else { continue }
                    messages.append(message)
                    let visitor = messages.count
                    await Task { @WebKitActor in
                        // Visitor 1 walked away after a second of idleness; visitor 2's scripted
                        // sign-in (no input, so no reset of the timer) gets all the time a slow machine needs.
                        if visitor == 2 { kiosk.settings.idleTimeout = .seconds(120) }
                        if let button = kiosk.startScreen?.button { gtk_button_clicked(cwk_button(button)) }
                    }.value
                    if messages.count == 2 { return messages }
                }
                return messages
            }
            let result = try await kiosk.nextVisitor(script: script)
            #expect(result.idToken.subject == OpenIDProvider.User.alice.subject)
            let messages = await pressTask.value
            #expect(messages == [await kiosk.welcome, await kiosk.startAgain])
            #expect(visitors.count == 2)
            #expect(await kiosk.startScreen == nil)
        }
    }
}

/// Numbers the visitors a kiosk test's script sees.
final class Visitors: Sendable {
    private let seen = Mutex(0)
    func next() -> Int { seen.withLock { $0 += 1; return $0 } }
    var count: Int { seen.withLock { $0 } }
}
