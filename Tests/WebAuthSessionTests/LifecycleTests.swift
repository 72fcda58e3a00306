import DevProvider
import Foundation
import Testing
@testable import WebAuthSession

extension EngineTests {
    @Suite("Lifecycle")
    struct Lifecycle {
        @Test("fifty sessions in a row leave no web view, window, file descriptor, web process or Xvfb behind (in a child process)")
        func fiftySessions() async throws {
            // A child process: descriptors are counted for the whole process, and the tests that run
            // beside this one (other suites, with their providers and child programs) open theirs.
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                func fail(_ message: String) -> Never {
                    FileHandle.standardError.write(Data("FAILED: \(message)\n".utf8))
                    exit(2)
                }
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
                guard diagnostics.liveWebViews == 0, diagnostics.toplevelWindows == 0 else {
                    fail("\(diagnostics.liveWebViews) web views and \(diagnostics.toplevelWindows) windows alive after 50 sessions")
                }
                // Web processes end asynchronously and WebKit may keep one for reuse; one per session would be 50.
                let webProcesses = WebProcesses.descendants(named: "WebKitWebProces").count
                guard webProcesses < 5 else { fail("\(webProcesses) web processes alive after 50 sessions") }
                // WebKit holds a socket, a pidfd and an eventfd per live web process (those still
                // ending count too), and the count moves by a few either way; a leak of even one
                // descriptor per session would add 50.
                let grown = TestEngine.openFileDescriptors - baseline
                guard grown < 10 + 3 * webProcesses else {
                    fail("\(grown) more file descriptors after 50 sessions (baseline \(baseline), \(webProcesses) web processes)")
                }
                let displays = WebProcesses.descendants(named: "Xvfb").count
                guard displays == 1 else { fail("\(displays) Xvfbs: one private Xvfb, however many sessions") }
            }
            let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(!said.contains("FAILED:"), "\(said.split(separator: "\n").filter { $0.hasPrefix("FAILED:") })")
            if case .signal = result?.exitStatus { Issue.record("the child ended on a signal; the end of its stderr:\n\(said.suffix(3000))") }
        }

        /// WebKitGTK gives the shared context's own data manager a network process, and each view's
        /// ephemeral one the same process only if that one runs already: otherwise a second one, which
        /// served every page while the first served nothing (and, with no view of its own, could end
        /// before the sign-in did). Counted while each page is shown: in a kept view, then in a new one.
        @Test("sessions in a kept view and in a new view share one network process (in a child process)")
        func oneNetworkProcess() async {
            await #expect(processExitsWith: .success) {
                _ = TestEngine.configured
                let site = try await TestSite.start()
                let page = site.page(body: "<p id='shown'>shown</p>")
                var kept = TestEngine.options()
                kept.reusableView = ReusableView()
                for options in [kept, TestEngine.options()] {
                    let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: options)
                    let counted = Task {
                        try await session.waitForElement("#shown")
                        let network = WebProcesses.descendants(named: "WebKitNetworkP").count
                        _ = try await session.evaluateJavaScript("location.href = 'com.example:/cb?code=1'")
                        return network
                    }
                    _ = try await session.start()
                    let network = try await counted.value
                    guard network == 1 else {
                        FileHandle.standardError.write(Data("\(network) WebKit network processes while a page was shown\n".utf8))
                        exit(2)
                    }
                }
            }
        }

        @Test("a hundred sessions in prewarmed views leave none of WebKit's IPC threads behind (in a child process)")
        func prewarmedSessions() async {
            await #expect(processExitsWith: .success) {
                _ = TestEngine.configured  // first: it would replace a configuration set before it
                try WebAuthEngine.configure(EngineConfiguration(display: .virtual, prewarmsWebViews: true))
                try await Self.hundredSessionsLeaveNoThreads(TestEngine.options())
            }
        }

        @Test("a hundred windows in a profile's prewarmed views leave none of WebKit's IPC threads behind (in a child process)")
        func prewarmedProfileWindows() async {
            await #expect(processExitsWith: .success) {
                _ = TestEngine.configured  // first: it would replace a configuration set before it
                try WebAuthEngine.configure(EngineConfiguration(display: .virtual, prewarmsProfileWindows: true))
                let profile = FileManager.default.temporaryDirectory.appendingPathComponent("prewarmed-windows-\(getpid())")
                defer { try? FileManager.default.removeItem(at: profile) }
                var options = TestEngine.options(.window())
                options.websiteData = .persistent(profileDirectory: profile)
                try await Self.hundredSessionsLeaveNoThreads(options)
                @WebKitActor func waiting() -> Bool { PrewarmedView.shared.readyProfileView != nil }
                guard await waiting() else { exit(3) }  // the windows were the prewarmed kind
            }
        }

        /// Runs a hundred sessions with `options` after a first one, and exits 2 when WebKit's receive
        /// threads grew by more than the two web processes that may be alive at the end (the session's,
        /// ending, and the next prewarmed one): prewarmed views rendering without compositing left
        /// about one behind every nine sessions. In an exit test, with the engine configured.
        static func hundredSessionsLeaveNoThreads(_ options: WebAuthenticationOptions) async throws {
            let site = try await TestSite.start()
            let page = site.page(body: "<script>location.href = 'com.example:/cb?code=' + Math.random()</script>")
            try await WebAuthEngine.prewarm()
            _ = try await TestEngine.session(page, redirectURI: "com.example:/cb", options: options).start()
            let baseline = TestEngine.threads(named: "ReceiveQueue")
            for _ in 0..<100 { _ = try await TestEngine.session(page, redirectURI: "com.example:/cb", options: options).start() }
            let grown = TestEngine.threads(named: "ReceiveQueue") - baseline
            guard grown < 3 else {
                FileHandle.standardError.write(Data("\(grown) more WebKit receive threads after 100 prewarmed sessions (baseline \(baseline))\n".utf8))
                exit(2)
            }
        }
    }
}

extension EngineTests.Lifecycle {
    @Test("shutdown() ends running sessions and refuses new ones (in a child process)")
    func explicitShutdown() async {
        await #expect(processExitsWith: .success) {
            let site = try await TestSite.start()
            let page = site.page(body: "<p>waiting</p>")
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb")
            let recorder = EventRecorder(session)
            let run = Task { try await session.start() }
            guard await recorder.firstLoadFinished() != nil else { exit(2) }
            await WebAuthEngine.shutdown()
            do { _ = try await run.value; exit(3) } catch WebAuthenticationError.engineShutDown {} catch { exit(4) }
            let diagnostics = await WebAuthEngine.diagnostics
            guard diagnostics.liveWebViews == 0, diagnostics.toplevelWindows == 0 else { exit(5) }
            let later = try TestEngine.session(page, redirectURI: "com.example:/cb")
            do { _ = try await later.start(); exit(6) } catch WebAuthenticationError.engineShutDown {} catch { exit(7) }
        }
    }
}
