import DevProvider
import Foundation
import OpenIDConnect
import Synchronization
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// Login scripts on real pages: every step and value source, and failures that name the step.
    @Suite("Login scripts")
    struct LoginScripts {
        /// A page with the elements every kind of step needs; whatever the script does ends in a
        /// redirect that reports what the page saw.
        static let page = """
            <form id='f' onsubmit="event.preventDefault(); location.href = 'com.example:/cb?' + new URLSearchParams(new FormData(this))">
              <input id='user' name='user'><input id='secret' name='secret' type='password'>
              <input id='code' name='code'><input id='typed' name='typed'>
            </form>
            <ul id='accounts'><li onclick="document.getElementById('user').value = 'chosen:' + this.textContent">bob@example.com</li>
              <li onclick="document.getElementById('user').value = 'chosen:' + this.textContent">alice@example.com</li></ul>
            <button id='reveal' onclick="setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p>Ready now</p>'), 50)">reveal</button>
            <script>document.getElementById('typed').addEventListener('input', (e) => e.target.dataset.seen = 'input');</script>
            """

        @Test("each step and value source does what it says, in order")
        func everyStep() async throws {
            let site = try await TestSite.start()
            let provider = try await OpenIDProvider.start()
            // Put a code in the provider's outbox, as the email login does.
            _ = try await URLSessionHTTPClient().send(HTTPRequest(
                method: "POST", url: URL(string: provider.issuer
                    + "/authorize?response_type=code&client_id=webauth-demo&redirect_uri=com.example.webauth:/callback&code_challenge=x&code_challenge_method=S256")!,
                headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("step=email&email=alice@example.com".utf8)))
            let code = try #require(provider.outbox.last?.code)
            let secretFile = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
            try "from-a-file\n".write(to: secretFile, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: secretFile) }

            let session = try TestEngine.session(site.page(title: "Steps", body: Self.page), redirectURI: "com.example:/cb")
            let steps: [LoginStep] = [
                .waitForURL(containing: "/page/"),
                .chooseAccount("alice@example.com"),
                .fill("#secret", .file(secretFile.path)),
                .fill("#code", .outbox(URL(string: provider.issuer + "/outbox?email=alice@example.com")!)),
                .fill("#typed", .command("printf 'from %s' command")),
                .javaScript("document.getElementById('typed').value += '+' + document.getElementById('typed').dataset.seen"),
                .click("#reveal"),
                .waitForText("Ready now"),
                .fill("#typed", .environment("TYPED")),
                .pressEnter("#typed"),
            ]
            let numbers = StepLog()
            let script = Task {
                try await LoginScript(steps).run(in: session, environment: ["TYPED": "from-env"]) { number, _ in numbers.append(number) }
            }
            let callback = try await session.start()
            try await script.value
            #expect(callback["user"] == "chosen:alice@example.com")
            #expect(callback["secret"] == "from-a-file")
            #expect(callback["code"] == code)
            #expect(callback["typed"] == "from-env")
            #expect(numbers.all == Array(1...steps.count))
        }

        @Test("the command's own text arrives (with the input event a framework listens for)")
        func inputEvents() async throws {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.page(body: Self.page), redirectURI: "com.example:/cb")
            let script = Task {
                try await LoginScript([.fill("#typed", .command("echo hello")),
                                       .javaScript("document.getElementById('user').value = document.getElementById('typed').dataset.seen"),
                                       .pressEnter("#typed")]).run(in: session)
            }
            let callback = try await session.start()
            try await script.value
            #expect(callback["typed"] == "hello" && callback["user"] == "input")
        }

        @Test("the steps' and page waits' time runs from the first page: a start page slower than step_timeout is waited for")
        func stepsStartAtTheFirstPage() async throws {
            // The sleep is the thing under test, not a wait for an event: a first page later than a
            // step's whole time (as WebKit's start on a busy machine is) must not fail the step.
            let server = try await LocalHTTPServer.start { _ in
                try? await Task.sleep(for: .seconds(2))  // twice the 1 s step_timeout below
                return .html("<form onsubmit=\"event.preventDefault(); location.href = 'com.example:/cb?user=' + this.user.value\"><input id='user' name='user'></form>")
            }
            let session = try TestEngine.session(server.baseURL.appendingPathComponent("slow"), redirectURI: "com.example:/cb")
            let script = Task {
                do {
                    try await session.waitForElement("#user", timeout: .seconds(1))
                    try await LoginScript([.fill("#user", .literal("alice")), .pressEnter("#user")], stepTimeout: .seconds(1)).run(in: session)
                } catch {
                    session.cancel()  // a step that timed out ends the sign-in at once
                    throw error
                }
            }
            let callback = try? await session.start()
            try await script.value
            #expect(callback?["user"] == "alice")
            await server.stop()
        }

        @Test("failures name the step and never the value", arguments: [
            (LoginStep.click("#missing"), "step 1 (click '#missing') failed: waited"),
            (.fill("#secret", .literal("hunter2")), "a password field takes its value from env"),
            (.fill("#user", .environment("NOT_SET_ANYWHERE")), "the environment variable NOT_SET_ANYWHERE is not set"),
            (.fill("#user", .command("exit 3")), "exited with status 3"),
            (.fill("#user", .file("/nonexistent/secret")), "cannot read /nonexistent/secret"),
            (.javaScript("throw new Error('no')"), "page script failed"),
            (.chooseAccount("carol@example.com"), "waited"),
        ])
        func failures(step: LoginStep, message: String) async throws {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.page(body: Self.page), redirectURI: "com.example:/cb")
            let run = Task { try await session.start() }
            defer { session.cancel() }
            try await session.waitForElement("#user")  // the page is there: only the step can fail
            let artifacts = FileManager.default.temporaryDirectory.appendingPathComponent("artifacts-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: artifacts) }
            do {
                try await LoginScript([step], stepTimeout: .milliseconds(500)).run(in: session, environment: [:], artifactsDirectory: artifacts)
                Issue.record("the step passed")
            } catch {
                #expect(error.description.contains(message), "\(error)")
                #expect(!error.description.contains("hunter2"))
            }
            let left = try FileManager.default.contentsOfDirectory(at: artifacts, includingPropertiesForKeys: nil)
            #expect(left.count == 1 && left[0].lastPathComponent.contains("-step-1-"), "the report was left in the artifacts directory")
            session.cancel()
            _ = await run.result
        }
    }
}

/// The step numbers a script reported, in order.
final class StepLog: Sendable {
    private let numbers = Mutex<[Int]>([])
    func append(_ number: Int) { numbers.withLock { $0.append(number) } }
    var all: [Int] { numbers.withLock { $0 } }
}

extension EngineTests.LoginScripts {
    @Test("a failed step comes with what a person would see: screenshot, URL, title, text, navigation log")
    func failureReport() async throws {
        let provider = try await OpenIDProvider.start()
        let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                         redirectURI: try RedirectURI("com.example.webauth:/callback"))
        do {
            _ = try await client.signIn(options: TestEngine.options(), script: LoginScript([
                .fill("#username", .literal("alice")), .waitForElement("#no-such-thing"),
            ], stepTimeout: .seconds(2)).runner())
            Issue.record("signed in without a password")
        } catch {
            guard case .script(.loginScript(let failure)) = error, let report = failure.report else { throw error }
            #expect(failure.stepNumber == 2 && failure.step == .waitForElement("#no-such-thing"))
            #expect("\(error)".hasPrefix("login script failed: step 2 (wait for '#no-such-thing') failed"))
            #expect(report.step == "step 2: wait for '#no-such-thing'")
            #expect(report.title == "Sign in to the development provider")
            #expect(report.url?.hasPrefix(provider.issuer + "/authorize?") == true)
            #expect(report.url?.contains("&state=<43>") == true, "the report's URL has its values redacted")
            #expect(report.visibleText?.contains("User name") == true)
            #expect(report.navigationLog.contains { $0.kind == .loadCommitted && $0.value.hasPrefix(provider.issuer) })
            let png = try #require(report.screenshotPNG)
            let image = try #require(PNGImage(png))
            #expect(image.width == 1024 && image.height == 768)
            #expect(image.count(0x2B59C3) > 1000, "the page's blue Sign in button is in the screenshot")

            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let files = try report.write(to: directory)
            #expect(files.map(\.lastPathComponent) == ["screenshot.png", "page.json", "navigation.json"])
            #expect(try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int == 0o700)
            for file in files {
                #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600, "\(file.lastPathComponent)")
            }
            let facts = try JSONValue(parsing: String(contentsOf: directory.appendingPathComponent("page.json"), encoding: .utf8))
            #expect(facts["step"] == .string("step 2: wait for '#no-such-thing'"))
        }
        #expect(await WebAuthEngine.diagnostics.liveWebViews == 0)
    }
}

extension EngineTests.LoginScripts {
    @Test("a command sees PATH, HOME, LANG and the variables its step names, nothing else of the environment")
    func commandEnvironment() async throws {
        let canary = "canary-\(UUID().uuidString)"
        setenv("SECRET_CANARY", canary, 1)
        defer { unsetenv("SECRET_CANARY") }
        let site = try await TestSite.start()
        let session = try TestEngine.session(site.page(body: Self.page), redirectURI: "com.example:/cb")
        let script = Task {
            try await LoginScript([.fill("#user", .command("echo $SECRET_CANARY")),
                                   .fill("#typed", .command("echo $SECRET_CANARY", passing: ["SECRET_CANARY"])),
                                   .fill("#code", .command("echo $HOME")),
                                   .pressEnter("#typed")]).run(in: session)
        }
        let callback = try await session.start()
        try await script.value
        #expect(callback["user"] == "", "a variable the step does not name reached the command")
        #expect(callback["typed"] == canary)
        #expect(callback["code"] == ProcessInfo.processInfo.environment["HOME"] ?? "")
    }

    @Test("pass_environment in a script file names a command's variables, and goes with command only")
    func passEnvironmentKey() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scripts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good.yaml")
        try """
            steps:
              - fill: "#code"
                command: pass otp web
                pass_environment: [PASSWORD_STORE_DIR, GNUPGHOME]
            """.write(to: good, atomically: true, encoding: .utf8)
        #expect(try LoginScript(contentsOfFile: good.path).steps
            == [.fill("#code", .command("pass otp web", passing: ["PASSWORD_STORE_DIR", "GNUPGHOME"]))])
        let bad = directory.appendingPathComponent("bad.yaml")
        try """
            steps:
              - fill: "#user"
                env: USER
                pass_environment: [HOME]
            """.write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: LoginScriptFileError.invalid(path: bad.path, message: "line 2, column 5: step 1: pass_environment goes with command only")) {
            try LoginScript(contentsOfFile: bad.path)
        }
    }
}

extension EngineTests.LoginScripts {
    /// Whether the FIFOs' writer stopped waiting for the probe and wrote anyway.
    final class FIFOWriter: Sendable {
        let gaveUp = Mutex(false)
    }

    @Test("a command value waits for its command without holding a thread of the cooperative pool")
    func commandDoesNotBlockThePool() async throws {
        // More commands than the pool has threads: waiting on them the old way held every thread.
        let count = 2 * ProcessInfo.processInfo.activeProcessorCount
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-fifo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifos = (0..<count).map { "\(directory)/fifo\($0)" }
        for fifo in fifos { #expect(mkfifo(fifo, 0o600) == 0) }
        // Held open read-write, so lines written wait in the FIFO for a command that opens it later.
        let descriptors = fifos.map { open($0, O_RDWR) }
        defer { descriptors.forEach { close($0) } }

        let probed = DispatchSemaphore(value: 0)
        let writerState = FIFOWriter()
        // Writes each command its line once a task on the pool has run, or (with the pool held) after a minute.
        let writer = Thread {
            if probed.wait(timeout: .now() + 60) == .timedOut { writerState.gaveUp.withLock { $0 = true } }
            for (index, descriptor) in descriptors.enumerated() {
                let line = Array("value-\(index)\n".utf8)
                _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            }
        }
        writer.start()
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for fifo in fifos {
                group.addTask {
                    try await LoginValue.command("read line < \"$FIFO\"; echo \"$line\"", passing: ["FIFO"])
                        .resolve(environment: ["FIFO": fifo], http: URLSessionHTTPClient())
                }
            }
            _ = await Task.detached { probed.signal() }.value
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(!writerState.gaveUp.withLock { $0 }, "a task on the pool ran while every command was waiting")
        #expect(Set(values) == Set((0..<count).map { "value-\($0)" }))
    }
}
