import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// Lookalikes of the redirect URI and non-web navigations are refused, and the real
    /// redirect is still captured afterwards.
    @Suite("Lookalikes and non-web navigations are refused")
    struct Refusals {
        static let redirect = "com.example:/cb"

        @Test("each is refused with its reason; then the real redirect is captured")
        func refusedThenCaptured() async throws {
            let site = try await TestSite.start()
            let page = site.page(title: "Start", body: "<p>start</p>")
            let session = try TestEngine.session(page, redirectURI: Self.redirect)
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            #expect(await recorder.firstLoadFinished() != nil)

            let refusals: [(url: String, reason: NavigationDecision.RefusalReason)] = [
                ("com.example:/cbx?code=1", .redirectLookalike),
                ("com.example:/cb/../x?code=1", .redirectLookalike),
                ("com.example://cb?code=1", .redirectLookalike),
                ("COM.EXAMPLE:/CB?code=1", .redirectLookalike),
                ("otherapp:/cb?code=1", .unknownScheme),
                ("mailto:someone@example.com", .unknownScheme),
                ("data:text/html,<p>phish</p>", .dataURL),
                // file: never reaches the policy from an http page: WebKit blocks it first.
            ]
            var seen = await recorder.decisionCount
            for refusal in refusals {
                try await session.evaluateJavaScript("location.href = \(js(refusal.url)); null")
                let decision = try #require(await recorder.decision(after: seen))
                seen += 1
                #expect(decision.verdict == .refused(refusal.reason), "\(refusal.url) → \(decision)")
            }
            try await session.evaluateJavaScript("location.href = \(js(Self.redirect + "?code=real&state=s")); null")
            let callback = try await run.value
            #expect(callback["code"] == "real")
        }

        /// On the old rule a loopback near miss was an ordinary page: it loaded, and the code
        /// in its query reached whatever listened on the redirect URI's port.
        @Test("a near miss on a loopback redirect URI's own host and port, or its aliases localhost and [::1], never reaches the network")
        func loopbackNearMiss() async throws {
            let site = try await TestSite.start()
            let sink = try await TestSite.start()
            let redirect = sink.url("/cb")
            let session = try TestEngine.session(site.page(body: "<p>start</p>"), redirectURI: redirect)
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            #expect(await recorder.firstLoadFinished() != nil)
            var seen = await recorder.decisionCount
            // The listener's aliases: localhost and [::1] on its port are its own host, not foreign pages.
            let aliases = ["localhost", "[::1]"].map { sink.url("/cb?code=1").replacingOccurrences(of: "127.0.0.1", with: $0) }
            for nearMiss in [sink.url("/cbx?code=1"), sink.url("/?code=2"), sink.url("/cb/more?code=3")] + aliases {
                try await session.evaluateJavaScript("location.href = \(js(nearMiss)); null")
                let decision = try #require(await recorder.decision(after: seen))
                seen += 1
                #expect(decision.verdict == .refused(.redirectLookalike), "\(nearMiss) → \(decision)")
                #expect(!decision.url.contains("code=1") && !decision.url.contains("code=2"), "the log shows it redacted")
            }
            try await session.evaluateJavaScript("location.href = \(js(redirect + "?code=real&state=s")); null")
            #expect(try await run.value["code"] == "real")
            #expect(sink.requests.isEmpty, "nothing reached the redirect URI's port")
        }

        /// Each registered form failed to match what WebKit reports on the old exact-string rule,
        /// so the navigation carrying the code went out to the network.
        @Test("a redirect URI registered in another form than WebKit reports is still caught",
              arguments: ["http://LOCALHOST:PORT", "http://localhost:PORT/c%62", "HTTP://Localhost:PORT/cb"])
        func registeredOtherwise(template: String) async throws {
            let site = try await TestSite.start()
            let sink = try await TestSite.start()
            let registered = template.replacingOccurrences(of: "PORT", with: "\(sink.server.port)")
            let path = template.hasSuffix("PORT") ? "/" : "/cb"
            let actual = "http://localhost:\(sink.server.port)\(path)?code=real&state=s"
            let start = site.page(body: "<script>setTimeout(() => { location.href = \(js(actual)) }, 0)</script>")
            let session = try TestEngine.session(start, redirectURI: registered)
            #expect(try await session.start()["code"] == "real")
            #expect(sink.requests.isEmpty, "the code never left the engine")
        }

        /// On the old scheme handler any request to the private scheme was the redirect: an image
        /// on the page could end the sign-in with a code of the page's choosing.
        @Test("page resources aimed at the private scheme are refused, never captured")
        func subresources() async throws {
            let site = try await TestSite.start()
            let page = site.page(body: """
                <img id="probe" src="\(Self.redirect)?code=from-img&state=s">
                <script>
                  const xhr = new XMLHttpRequest();
                  xhr.open('GET', '\(Self.redirect)?code=from-xhr&state=s');
                  try { xhr.send(); } catch (e) {}
                </script>
                """)
            let session = try TestEngine.session(page, redirectURI: Self.redirect)
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            let refused = await recorder.first {
                if case .navigation(let decision) = $0 { decision.verdict == .refused(.redirectSubresource) } else { false }
            }
            #expect(refused != nil)
            #expect(await recorder.firstLoadFinished() != nil)
            try await session.evaluateJavaScript("location.href = \(js(Self.redirect + "?code=real&state=s")); null")
            #expect(try await run.value["code"] == "real")
        }
    }
}
