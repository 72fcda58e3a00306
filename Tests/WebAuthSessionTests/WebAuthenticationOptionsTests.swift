import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    @Suite("Session options")
    struct Options {
        /// A page that reports what it finds (cookie, local storage), leaves its own, then redirects.
        private func reportingPage(on site: TestSite) -> URL {
            site.page(body: """
                <script>
                const found = { cookie: document.cookie, stored: localStorage.getItem('visitor') || '' };
                document.cookie = 'visitor=1; max-age=3600';
                localStorage.setItem('visitor', '1');
                location.href = 'com.example:/cb?cookie=' + encodeURIComponent(found.cookie) + '&stored=' + found.stored;
                </script>
                """)
        }

        private func visit(_ url: URL, _ websiteData: WebAuthenticationOptions.WebsiteData) async throws -> RedirectCallback {
            var options = TestEngine.options()
            options.websiteData = websiteData
            return try await TestEngine.session(url, redirectURI: "com.example:/cb", options: options).start()
        }

        @Test("ephemeral sessions (the default) share nothing, even side by side")
        func ephemeralIsolation() async throws {
            let site = try await TestSite.start()
            let page = reportingPage(on: site)
            #expect(WebAuthenticationOptions().websiteData == .ephemeral)
            let first = try await visit(page, .ephemeral)
            #expect(first["cookie"] == "" && first["stored"] == "")
            let second = try await visit(page, .ephemeral)
            #expect(second["cookie"] == "", "a cookie leaked from the previous session")
            #expect(second["stored"] == "", "local storage leaked from the previous session")
            async let a = visit(page, .ephemeral)
            async let b = visit(page, .ephemeral)
            for callback in try await [a, b] { #expect(callback["cookie"] == "" && callback["stored"] == "") }
        }

        @Test("a persistent profile keeps cookies and storage until its website data is cleared")
        func persistentProfile() async throws {
            let site = try await TestSite.start()
            let page = reportingPage(on: site)
            let profile = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-profile-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: profile) }

            let first = try await visit(page, .persistent(profileDirectory: profile))
            #expect(first["cookie"] == "")
            let second = try await visit(page, .persistent(profileDirectory: profile))
            #expect(second["cookie"] == "visitor=1")
            #expect(second["stored"] == "1")
            let mode = try FileManager.default.attributesOfItem(atPath: profile.path)[.posixPermissions] as? Int
            #expect(mode == 0o700)

            try await WebAuthEngine.clearWebsiteData(profileDirectory: profile)
            let third = try await visit(page, .persistent(profileDirectory: profile))
            #expect(third["cookie"] == "")
            #expect(third["stored"] == "")
        }

        @Test("a profile directory that cannot be created is a typed error")
        func unusableProfile() async throws {
            let site = try await TestSite.start()
            let blocker = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-file-\(UUID().uuidString)")
            try Data("not a directory".utf8).write(to: blocker)
            defer { try? FileManager.default.removeItem(at: blocker) }
            do {
                _ = try await visit(reportingPage(on: site), .persistent(profileDirectory: blocker.appendingPathComponent("profile")))
                Issue.record("expected profileUnavailable")
            } catch {
                guard case .profileUnavailable = error as? WebAuthenticationError else { throw error }
            }
        }

        @Test("the user agent is replaced everywhere, in headers and in navigator.userAgent")
        func userAgent() async throws {
            let site = try await TestSite.start()
            let page = site.page(body: "<script>location.href = 'com.example:/cb?ua=' + encodeURIComponent(navigator.userAgent)</script>")
            var options = TestEngine.options()
            options.userAgent = "WebAuthSessionTests/1.0"
            let callback = try await TestEngine.session(page, redirectURI: "com.example:/cb", options: options).start()
            #expect(callback["ua"] == "WebAuthSessionTests/1.0")
            #expect(site.requests(to: page.path).first?.header("User-Agent") == "WebAuthSessionTests/1.0")
        }

        @Test("additional headers go with the first request only")
        func additionalHeaders() async throws {
            let site = try await TestSite.start()
            let next = site.serve(.redirect(to: "com.example:/cb?code=1"))
            let first = site.page(body: "<script>location.href = \(js(next.absoluteString))</script>")
            var options = TestEngine.options()
            options.additionalHeaders = ["X-Login-Hint": "alice"]
            _ = try await TestEngine.session(first, redirectURI: "com.example:/cb", options: options).start()
            #expect(site.requests(to: first.path).first?.header("X-Login-Hint") == "alice")
            #expect(site.requests(to: next.path).first?.header("X-Login-Hint") == nil)
        }
    }

    @Suite("Progress events")
    struct Events {
        @Test("a sign-in reports start, commit (host, TLS), progress, finish, title and every decision, in order")
        func eventSequence() async throws {
            let site = try await TestSite.start()
            let page = site.page(title: "Sign in to Example", body: "<script>addEventListener('load', () => location.href = 'com.example:/cb?code=1')</script>")
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb")
            let recorder = EventRecorder(session)
            _ = try await session.start()
            let events = await recorder.all()

            func index(_ matches: (WebAuthenticationEvent) -> Bool) -> Int? { events.firstIndex(where: matches) }
            let allowed = index { $0 == .navigation(NavigationDecision(url: page.absoluteString, verdict: .allowed)) }
            let started = index { $0 == .loadStarted(url: page.absoluteString) }
            let committed = index { $0 == .loadCommitted(url: page.absoluteString, host: "127.0.0.1", tls: .none) }
            let finished = index { $0 == .loadFinished(url: page.absoluteString) }
            let title = index { $0 == .titleChanged("Sign in to Example") }
            let captured = index { $0 == .navigation(NavigationDecision(url: "com.example:/cb?code=<1>", verdict: .captured)) }
            let order = try [allowed, started, committed, finished, captured].map { try #require($0, "\(events)") }
            #expect(order == order.sorted())
            #expect(title != nil)
            let progress = events.compactMap { if case .progress(let value) = $0 { value } else { nil } }
            #expect(!progress.isEmpty && progress.allSatisfy { (0...1).contains($0) })
            #expect(progress.last == 1)
        }
    }
}
