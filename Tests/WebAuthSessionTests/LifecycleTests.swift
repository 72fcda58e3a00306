import DevProvider
import Foundation
import Testing
@testable import WebAuthSession

extension EngineTests {
    @Suite("Lifecycle")
    struct Lifecycle {
        @Test("fifty sessions in a row leave no web view, window or file descriptor behind")
        func fiftySessions() async throws {
            let site = try await TestSite.start()
            let page = site.page(body: "<script>location.href = 'com.example:/cb?code=' + Math.random()</script>")
            func signIn() async throws {
                _ = try await TestEngine.session(page, redirectURI: "com.example:/cb").start()
            }
            // The first session starts the shared web and network processes; count from there.
            try await signIn()
            let baseline = TestEngine.openFileDescriptors
            for _ in 0..<50 { try await signIn() }
            let diagnostics = await WebAuthEngine.diagnostics
            #expect(diagnostics.liveWebViews == 0)
            #expect(diagnostics.toplevelWindows == 0)
            #expect(TestEngine.openFileDescriptors <= baseline, "file descriptors grew from \(baseline)")
        }
    }
}
