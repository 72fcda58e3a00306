import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// Every way a session can fail ends in its own typed error, with the window gone.
    @Suite("Failures end in typed errors and free everything")
    struct Failures {
        /// A page that never redirects, and a session on it.
        private func stuckSession(_ presentation: WebAuthenticationOptions.Presentation = .headless,
                                  timeout: Duration = .seconds(60)) async throws -> (WebAuthenticationSession, EventRecorder) {
            let site = try await TestSite.start()
            let page = site.page(title: "Waiting", body: "<p>Nothing happens here.</p>")
            let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: TestEngine.options(presentation, timeout: timeout))
            return (session, EventRecorder(session))
        }

        /// Runs `session` in a task, waits until its page has loaded, applies `action`, and
        /// returns the error the session ended with.
        private func endedError(_ session: WebAuthenticationSession, _ recorder: EventRecorder,
                                after action: @escaping @Sendable (Task<RedirectCallback, any Error>) async -> Void) async throws -> WebAuthenticationError {
            let task = Task { try await session.start() }
            #expect(await recorder.firstLoadFinished() != nil)
            await action(task)
            do {
                _ = try await task.value
                Issue.record("the session returned a callback")
                throw CancellationError()
            } catch let error as WebAuthenticationError {
                return error
            }
        }

        private func expectNothingLeft() async {
            let diagnostics = await WebAuthEngine.diagnostics
            #expect(diagnostics.liveWebViews == 0)
            #expect(diagnostics.toplevelWindows == 0)
        }

        @Test("the person closes the window")
        func closedByUser() async throws {
            let (session, recorder) = try await stuckSession(.window())
            let error = try await endedError(session, recorder) { _ in await session.page?.requestWindowClose() }
            #expect(error == .closedByUser)
            #expect(error.isUserCancellation)
            await expectNothingLeft()
        }

        @Test("the program cancels: the calling task is cancelled, or cancel() is called", arguments: [true, false])
        func cancelled(byTask: Bool) async throws {
            let (session, recorder) = try await stuckSession(.window())
            let error = try await endedError(session, recorder) { task in
                if byTask { task.cancel() } else { session.cancel() }
            }
            #expect(error == .cancelled)
            await expectNothingLeft()
        }

        @Test("a task cancelled before start never shows a window")
        func cancelledBeforeStart() async throws {
            let (session, _) = try await stuckSession()
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await session.start()
            }
            await #expect(throws: WebAuthenticationError.cancelled) { try await task.value }
            await expectNothingLeft()
        }

        @Test("no redirect before the timeout")
        func timeout() async throws {
            let (session, recorder) = try await stuckSession(timeout: .milliseconds(300))
            do {
                _ = try await session.start()
                Issue.record("expected a timeout")
            } catch {
                guard case .timedOut(let after, let lastURL) = error else { throw error }
                #expect(after == .milliseconds(300))
                #expect(lastURL?.contains("/page/") == true)
            }
            _ = await recorder.all()
            await expectNothingLeft()
        }

        @Test("connection refused")
        func connectionRefused() async throws {
            let closed = try PortReservation()  // bound, never listening: the connection is refused
            let url = URL(string: "http://127.0.0.1:\(closed.port)/authorize")!
            let session = try TestEngine.session(url, redirectURI: "com.example:/cb")
            do {
                _ = try await session.start()
                Issue.record("expected a load failure")
            } catch {
                guard case .loadFailed(let failedURL, let domain, _, let message) = error else { throw error }
                #expect(failedURL == url.absoluteString)
                #expect(!domain.isEmpty)
                #expect(!message.isEmpty)
            }
            let log = await session.navigationLog
            #expect(log.contains { $0.kind == .loadFailed && $0.value == url.absoluteString && $0.detail?.hasSuffix("ignored") == false },
                    "the navigation log shows the failure that ended the sign-in: \(log)")
            withExtendedLifetime(closed) {}
            await expectNothingLeft()
        }

        @Test("a self-signed certificate is fatal and the page is never shown")
        func selfSignedCertificate() async throws {
            let server = try await PythonFixtureServer(script: "tls_server")
            let url = URL(string: "https://127.0.0.1:\(server.port)/login")!
            let session = try TestEngine.session(url, redirectURI: "com.example:/cb")
            let recorder = EventRecorder(session)
            do {
                _ = try await session.start()
                Issue.record("expected a TLS failure")
            } catch {
                guard case .tlsFailure(let failedURL, let host, let errors) = error else { throw error }
                #expect(failedURL == url.absoluteString)
                #expect(host == "127.0.0.1")
                #expect(errors.contains(.unknownAuthority))
            }
            let shown = await recorder.all().contains { if case .loadCommitted = $0 { true } else { false } }
            #expect(!shown)
            await expectNothingLeft()
        }

        @Test("the web process is killed")
        func webProcessKilled() async throws {
            let (session, recorder) = try await stuckSession()
            let error = try await endedError(session, recorder) { _ in #expect(WebProcesses.killAll() > 0) }
            #expect(error == .webProcessTerminated(.crashed))
            await expectNothingLeft()
        }

        @Test("a parameter sent twice is an error, not a guess",
              arguments: [("?code=a&code=b&state=s", [RedirectCallback.Source.query, .query]),
                          ("?code=a&state=s#code=b", [.query, .fragment])])
        func duplicateParameter(suffix: String, sources: [RedirectCallback.Source]) async throws {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.serve(.redirect(to: "com.example:/cb" + suffix)), redirectURI: "com.example:/cb")
            await #expect(throws: WebAuthenticationError.invalidCallback(.duplicateParameter("code", sources))) {
                try await session.start()
            }
        }

        @Test("a session starts once")
        func startTwice() async throws {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.serve(.redirect(to: "com.example:/cb?code=1")), redirectURI: "com.example:/cb")
            _ = try await session.start()
            await #expect(throws: WebAuthenticationError.alreadyStarted) { try await session.start() }
        }

        @Test("unusable options are refused before anything is shown", arguments: [
            ("file:///etc/passwd", [:]),
            ("http://127.0.0.1:1/", ["Bad Header": "x"]),
            ("http://127.0.0.1:1/", ["X-Injected": "a\r\nSet-Cookie: b"]),
        ])
        func invalidOptions(url: String, headers: [String: String]) async throws {
            var options = TestEngine.options()
            options.additionalHeaders = headers
            let session = try TestEngine.session(URL(string: url)!, redirectURI: "com.example:/cb", options: options)
            do {
                _ = try await session.start()
                Issue.record("expected invalidOption")
            } catch {
                guard case .invalidOption = error else { throw error }
            }
            await expectNothingLeft()
        }
    }
}

extension EngineTests {
    @Suite("Faults mid-login")
    struct MidLoginFaults {
        @Test("the provider dies while its login page is shown: the submit fails with a typed load error, nothing is left")
        func providerKilled() async throws {
            let server = try await PythonFixtureServer(script: "dot_provider")
            let client = OpenIDConnectClient(issuer: server.url("/o").absoluteString, clientID: "webauth-test",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            do {
                _ = try await client.signIn(options: TestEngine.options()) { session in
                    try await session.waitForElement("#id_password")
                    server.kill()
                    try await LoginScript([.fill("#id_username", .literal("alice")), .fill("#id_password", .environment("PASSWORD")),
                                           .click("#sign-in")]).run(in: session, environment: ["PASSWORD": "wonderland"])
                }
                Issue.record("signed in to a provider that is gone")
            } catch {
                guard case .session(.loadFailed(let url, _, _, _)) = error else { throw error }
                #expect(url.hasPrefix(server.url("/").absoluteString))
            }
            #expect(await WebAuthEngine.diagnostics.liveWebViews == 0)
        }
    }
}
