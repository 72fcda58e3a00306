import CWebKitGTK
import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// The headless harness at scale: many sign-ins at once on one engine.
    @Suite("Test harness: parallel sign-ins")
    struct Harness {
        @Test("ten sessions at once, ten users, ten separate sign-ins: each gets its own tokens")
        func tenInParallel() async throws {
            let users = (1...10).map {
                OpenIDProvider.User(username: "user\($0)", password: "password-\($0)", subject: "subject-\($0)",
                                    name: "User \($0)", email: "user\($0)@example.com")
            }
            let provider = try await OpenIDProvider.start(users: users)
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            _ = TestEngine.options()  // the private Xvfb
            let pool = SignInPool(client: client, width: 10)
            try await pool.prewarm()
            let results = try await withThrowingTaskGroup(of: (String, SignInResult).self) { group in
                for user in users {
                    group.addTask {
                        let script = LoginScript([.fill("#username", .literal(user.username)), .fill("#password", .environment("PASSWORD")),
                                                  .pressEnter("#password")])
                        return (user.subject, try await pool.signIn(script: script.runner(environment: ["PASSWORD": user.password])))
                    }
                }
                return try await group.reduce(into: [String: SignInResult]()) { $0[$1.0] = $1.1 }
            }
            #expect(results.count == 10)
            for (subject, result) in results { #expect(result.idToken.subject == subject) }
            #expect(Set(results.values.compactMap { $0.tokens?.accessToken }).count == 10, "every sign-in has its own tokens")
            #expect(await WebAuthEngine.diagnostics.liveWebViews == 10, "each place keeps its view")
            await pool.discardViews()
            #expect(await WebAuthEngine.diagnostics.liveWebViews == 0)
        }

        @Test("a narrow pool queues the rest and still completes every sign-in")
        func queueing() async throws {
            let provider = try await OpenIDProvider.start()
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            _ = TestEngine.options()
            let pool = SignInPool(client: client, width: 2)
            let script = LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("PASSWORD")),
                                      .click("#sign-in")]).runner(environment: ["PASSWORD": OpenIDProvider.User.alice.password])
            let subjects = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<5 { group.addTask { try await pool.signIn(script: script).idToken.subject } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(subjects == Array(repeating: OpenIDProvider.User.alice.subject, count: 5))
            await pool.discardViews()
        }
    }
}

extension EngineTests.Harness {
    @Test("with prewarmsWebViews, sessions start in views made ahead of time that are as fresh as new ones (in a child process)")
    func prewarmedViewsAreFresh() async {
        await #expect(processExitsWith: .success) {
            _ = TestEngine.configured
            try WebAuthEngine.configure(EngineConfiguration(display: .virtual, prewarmsWebViews: true))
            try await WebAuthEngine.prewarm()
            guard await PrewarmedView.shared.isEnabled else { exit(2) }
            let site = try await TestSite.start()
            let page = site.page(body: """
                <script>
                const found = document.cookie + '|' + localStorage.getItem('visitor');
                document.cookie = 'visitor=1; max-age=3600'; localStorage.setItem('visitor', '1');
                location.href = 'com.example:/cb?found=' + encodeURIComponent(found);
                </script>
                """)
            for _ in 0..<3 {
                let session = try TestEngine.session(page, redirectURI: "com.example:/cb")
                let callback = try await session.start()
                guard callback["found"] == "|null" else { exit(3) }  // a session found the last one's cookie or storage
                guard await !session.navigationLog.contains(where: { $0.value == "about:blank" }) else { exit(4) }  // the view's own blank page
            }
            guard await WebAuthEngine.diagnostics.liveWebViews == 0 else { exit(5) }
        }
    }

    @Test("with prewarmsProfileWindows, a profile's next window starts in a view made ahead of time in that profile: it sees the profile's cookies, another profile's window does not take it, a headless session neither takes nor leaves one (in a child process)")
    func prewarmedProfileViews() async {
        await #expect(processExitsWith: .success) {
            _ = TestEngine.configured
            try WebAuthEngine.configure(EngineConfiguration(display: .virtual, prewarmsProfileWindows: true))
            try await WebAuthEngine.prewarm()
            let site = try await TestSite.start()
            let page = site.page(body: """
                <script>
                const found = document.cookie;
                document.cookie = 'visitor=1; max-age=3600';
                location.href = 'com.example:/cb?found=' + encodeURIComponent(found);
                </script>
                """)
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("prewarmed-profiles-\(getpid())")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let (alice, bob) = (scratch.appendingPathComponent("alice"), scratch.appendingPathComponent("bob"))
            func signIn(_ profile: URL, presentation: WebAuthenticationOptions.Presentation = .window()) async throws -> (found: String?, blank: Bool) {
                var options = TestEngine.options()
                options.websiteData = .persistent(profileDirectory: profile)
                options.presentation = presentation
                let session = try TestEngine.session(page, redirectURI: "com.example:/cb", options: options)
                let callback = try await session.start()
                return (callback["found"], await session.navigationLog.contains(where: { $0.value == "about:blank" }))
            }
            /// The address of the profile view that is ready, if it is `profile`'s.
            @WebKitActor func readyView(for profile: URL) throws -> Int? {
                let context = try WebContextsByProfile.shared.context(for: .persistent(profileDirectory: profile))
                guard let ready = PrewarmedView.shared.readyProfileView, ready.context == context else { return nil }
                return Int(bitPattern: ready.view)
            }
            guard try await signIn(alice).found == "" else { exit(2) }
            guard let made = try await readyView(for: alice) else { exit(3) }  // for alice's next session
            // A view still loading its about:blank is not taken (a person's next sign-in comes later than this one).
            await ReadyViewLoad.finished()
            let second = try await signIn(alice)
            guard let next = try await readyView(for: alice), next != made else { exit(4) }  // the session took it, and another waits
            guard second.found == "visitor=1" else { exit(5) }  // the ready view reads alice's profile, not data of its own
            guard !second.blank else { exit(6) }  // the view's own blank page is not the session's
            guard try await signIn(bob).found == "" else { exit(7) }  // bob's session: none of alice's cookies
            guard let bobs = try await readyView(for: bob), try await readyView(for: alice) == nil else { exit(8) }  // the last profile's view waits
            guard try await signIn(bob, presentation: .headless).found == "visitor=1" else { exit(9) }
            guard try await readyView(for: bob) == bobs else { exit(10) }  // a headless session took none
            guard await WebAuthEngine.diagnostics.liveWebViews == 0 else { exit(11) }
        }
    }

    @Test("prewarm() starts the engine but keeps no web view ready unless the configuration asks for it")
    func prewarmChangesNoSetting() async throws {
        _ = TestEngine.options()
        try await WebAuthEngine.prewarm()
        #expect(await !PrewarmedView.shared.isEnabled, "prewarm() turned prewarmed views on for every later session")
    }
}

/// The end of the ready profile view's `about:blank` load, awaited on `notify::is-loading`.
@WebKitActor
private final class ReadyViewLoad {
    private var continuation: CheckedContinuation<Void, Never>?
    private var connection: SignalConnection?

    /// Returns once the ready profile view, if any, has stopped loading.
    static func finished() async {
        guard let view = PrewarmedView.shared.readyProfileView?.view, webkit_web_view_is_loading(view) != 0 else { return }
        let load = ReadyViewLoad()
        await withCheckedContinuation { continuation in
            load.continuation = continuation
            load.connection = SignalConnection(view, .notify("is-loading"), target: load, handler: changed)
        }
    }

    private static let changed: CWKNotifyHandler = { _, _, data in
        let load = WeakTarget<ReadyViewLoad>.from(data)
        WebKitActor.assumeIsolated {
            guard let load, let view = PrewarmedView.shared.readyProfileView?.view, webkit_web_view_is_loading(view) == 0 else { return }
            load.connection = nil
            load.continuation?.resume()
            load.continuation = nil
        }
    }
}

