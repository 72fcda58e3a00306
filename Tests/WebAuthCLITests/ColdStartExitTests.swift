import DevProvider
import Foundation
import TestSupport
import Testing

/// `webauth login --headless` starts its engine (Xvfb, GTK, the web context) while discovery runs
/// (the cold-start overlap). Whatever the engine is doing when the command decides to leave
/// (starting, running, shutting down), the process ends with its status and its one line, never a
/// signal, and leaves no process and no folder. The race this holds closed was seen once
/// in a full suite run (a segfault in exit's handlers beside GDK's start), so each test repeats its
/// run under load (the rest of the suite's, or `WEBAUTH_TEST_CPU_HOGS=2` busy loops when this
/// suite runs alone: ``CPUHogs``): 12 runs for each failed discovery and 6 interruptions by
/// default, where the issue asked for 100 (`WEBAUTH_TEST_EXIT_RUNS=100`), so that the suite stays
/// within its time on two cores and leaves the other suites room (each run is a process start
/// and, mostly, an engine start and its teardown).
@Suite("webauth login leaves cleanly while its engine starts", .serialized, .startsWebKit(minutes: 10))
struct ColdStartExitTests {
    let webauth = WebAuthBinary()
    /// Runs per failed discovery: 12 in a full suite run, where 92 engine starts beside the other
    /// suites starved the tests that wait on a page; `WEBAUTH_TEST_EXIT_RUNS` asks for more (the
    /// issue's proof is 100, with `WEBAUTH_TEST_CPU_HOGS=2`).
    static let failedDiscoveries = Int(ProcessInfo.processInfo.environment["WEBAUTH_TEST_EXIT_RUNS"] ?? "") ?? 12
    /// Interruptions: half as many.
    static let interruptions = max(1, failedDiscoveries / 2)

    /// Runs `webauth login --headless` against `issuer` `count` times beside the busy loops asked for; each must
    /// exit with `status` with exactly one line on stderr and leave nothing.
    func failedDiscoveries(_ issuer: String, count: Int, status: Int32, saying expected: String) async throws {
        let hogs = try CPUHogs()
        for run in 1...count {
            let folder = try RunFolder()
            defer { folder.remove() }
            let login = try await webauth(["login", "--issuer", issuer, "--client-id", "webauth-demo", "--headless"], environment: folder.environment)
            let lines = login.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(login.status == status, "run \(run): stderr: \(login.stderr)")
            #expect(lines.count == 1 && lines.first?.contains(expected) == true, "run \(run): one line: \(login.stderr)")
            #expect(folder.processesLeft.isEmpty, "run \(run): left running: \(folder.processesLeft)")
            #expect(folder.contents.isEmpty, "run \(run): left in TMPDIR: \(folder.contents)")
            if login.status != status || !folder.processesLeft.isEmpty || !folder.contents.isEmpty { break }
        }
        await hogs.stop()
    }

    @Test("a closed port: every run exits 4 with one line, no Xvfb, web process or folder left")
    func closedPort() async throws {
        let closed = try PortReservation()  // bound, never listening: the connection is refused at once
        try await failedDiscoveries("http://127.0.0.1:\(closed.port)", count: Self.failedDiscoveries, status: 4, saying: "network error")
    }

    @Test("a provider whose discovery answers 500: every run exits 3 (the provider's error) with one line, nothing left")
    func serverError() async throws {
        let provider = try await LocalHTTPServer.start { _ in LocalHTTPResponse(status: 500, body: "broken") }
        try await failedDiscoveries(provider.baseURL.absoluteString, count: Self.failedDiscoveries, status: 3, saying: "HTTP 500")
        await provider.stop()
    }

    @Test("SIGINT at random moments of a cold start: each exits 130 with its one line, nothing left")
    func interruptedColdStarts() async throws {
        let provider = try await OpenIDProvider.start()
        let script = try webauth.file("wait.yaml", "step_timeout: 600\nsteps:\n  - wait_for: \"#never\"\n")
        let arguments = ["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--timeout", "120", "--script", script]
        let hogs = try CPUHogs()
        // The cold start: from the command's trap of SIGINT to its first page, measured once here.
        let measured = try RunFolder()
        defer { measured.remove() }
        let first = try webauth.start(arguments + ["--verbose"], environment: measured.environment)
        await Self.signalsTrapped(first.pid)
        let began = ContinuousClock.now
        var stderr = ""
        for await chunk in first.stderr {
            stderr += chunk
            if stderr.contains("page from") { break }
        }
        let coldStart = ContinuousClock.now - began
        kill(first.pid, SIGINT)
        #expect(await first.status.value == 130, "stderr: \(stderr)")
        for run in 1...Self.interruptions {
            let folder = try RunFolder()
            defer { folder.remove() }
            let login = try webauth.start(arguments, environment: folder.environment)
            await Self.signalsTrapped(login.pid)
            // The sleep is the thing under test: SIGINT lands at a moment chosen at random within the
            // cold start (the stimulus), and nothing waits on the sleep for anything to happen.
            let moment = coldStart * Double.random(in: 0...1)
            try await Task.sleep(for: moment)
            kill(login.pid, SIGINT)
            var said = ""
            for await chunk in login.stderr { said += chunk }
            let status = await login.status.value
            #expect(status == 130 && said == "Interrupted: the sign-in was cancelled; nothing was saved.\n",
                    "run \(run), SIGINT \(moment) into a cold start of \(coldStart): exit \(status), stderr: \(said)")
            #expect(folder.processesLeft.isEmpty, "run \(run): left running: \(folder.processesLeft)")
            #expect(folder.contents.isEmpty, "run \(run): left in TMPDIR: \(folder.contents)")
        }
        await hogs.stop()
        await provider.stop()
    }

    /// Returns once `pid` catches or ignores SIGINT (its trap is set: from then on Ctrl-C is the
    /// command's to answer), as the kernel shows it in /proc/PID/status.
    static func signalsTrapped(_ pid: pid_t) async {
        let bit = UInt64(1) << UInt64(SIGINT - 1)
        while let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) {
            let masks = status.split(separator: "\n").filter { $0.hasPrefix("SigCgt:") || $0.hasPrefix("SigIgn:") }
                .compactMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
            if masks.contains(where: { $0 & bit != 0 }) { return }
            await Task.yield()
        }
    }
}
