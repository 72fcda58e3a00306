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
                ("com.example:/c%62?code=1", .redirectLookalike),
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
    }
}
