import ArgumentParser
import Foundation
import OpenIDConnect
import Synchronization
import WebAuthSession

/// `webauth-bench`: sign-ins on one warm engine, timed, as JSON on stdout. Run by `bench/run`.
@main
struct WebAuthBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webauth-bench",
        abstract: "Time scripted sign-ins on a warm engine: to the captured redirect and to validated tokens.")

    @Option(help: "The provider's issuer.") var issuer: String
    @Option(help: "The client ID.") var clientID: String
    @Option(help: "The redirect URI.") var redirectURI: String
    @Option(help: "The login script (YAML or JSON).") var script: String
    @Option(help: "Scopes, space-separated.") var scope = "openid"
    @Option(help: "Timed sign-ins (after one untimed warm-up).") var count = 10
    @Option(help: "How many run at once.") var parallel = 1
    @Option(help: "Soak: one at a time, and the process tree's memory, descriptors and helper processes every N sign-ins.")
    var reportEvery: Int?
    @Flag(help: "Print each timed sign-in's events to stderr, in ms since it started: where the time goes.")
    var timeline = false
    @Flag(help: "Keep a web view ready for the next sign-in (EngineConfiguration.prewarmsWebViews), as a harness may.")
    var prewarmViews = false
    @Flag(inversion: .prefixedNo, help: "Each pool place keeps its web view, reset between sign-ins (SignInPool.reusesViews).")
    var reuseViews = true
    @Option(help: "The private Xvfb's screen, WIDTHxHEIGHT (default: the engine's 1280x1024).")
    var virtualScreen: String?

    func run() async throws {
        let client = OpenIDConnectClient(issuer: issuer, clientID: clientID, redirectURI: try RedirectURI(redirectURI))
        let loginScript = try LoginScript(contentsOfFile: script)
        var configuration = EngineConfiguration(prewarmsWebViews: prewarmViews)
        if let virtualScreen {
            let sides = virtualScreen.split(separator: "x").compactMap { Int($0) }
            guard sides.count == 2 else { throw ValidationError("--virtual-screen takes WIDTHxHEIGHT, e.g. 800x600") }
            configuration.virtualScreenSize = (sides[0], sides[1])
        }
        try WebAuthEngine.configure(configuration)
        let pool = SignInPool(client: client, width: parallel, reusesViews: reuseViews)
        try await pool.prewarm()
        let scopes = scope.split(separator: " ").map(String.init)
        _ = try await Self.signIn(pool, scopes: scopes, script: loginScript)
        if let reportEvery { return try await soak(pool, scopes: scopes, script: loginScript, every: reportEvery) }
        let started = ContinuousClock.now
        var timings: [Timing] = []
        var failures: [String] = []
        if parallel == 1 {  // one after another: each time is the sign-in's own, no queueing in it
            for _ in 0..<count {
                do { timings.append(try await Self.signIn(pool, scopes: scopes, script: loginScript, timeline: timeline)) } catch { failures.append("\(error)") }
            }
        } else {
            let outcomes = await withTaskGroup(of: Result<Timing, any Error>.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        do { return .success(try await Self.signIn(pool, scopes: scopes, script: loginScript)) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for outcome in outcomes {
                switch outcome {
                case .success(let timing): timings.append(timing)
                case .failure(let error): failures.append("\(error)")
                }
            }
        }
        let wall = Self.milliseconds(ContinuousClock.now - started)
        let runs = timings.map { JSONValue.object(["redirect_ms": .number($0.redirect), "tokens_ms": .number($0.tokens)]) }
        let sandbox = await WebAuthEngine.diagnostics.webProcessSandbox
        print(JSONValue.object(["runs": .array(runs), "wall_ms": .number(wall), "failures": .array(failures.map(JSONValue.string)),
                                "sign_ins_per_minute": .number(Double(timings.count) / wall * 60_000),
                                "sandbox": .string(sandbox.description)]).description)
    }

    /// `count` sign-ins in a row, with a checkpoint of the process tree every `every` sign-ins: its memory,
    /// descriptors, threads and helper processes, and the median time to the redirect since the last checkpoint.
    func soak(_ pool: SignInPool, scopes: [String], script: LoginScript, every: Int) async throws {
        var checkpoints: [JSONValue] = []
        var window: [Double] = []
        func checkpoint(_ done: Int) {
            let tree = ProcessTree.now()
            let median = window.sorted().dropFirst(window.count / 2).first
            checkpoints.append(.object(["sign_ins": .number(Double(done)), "rss_mib": .number(tree.residentMiB), "pss_mib": .number(tree.proportionalMiB),
                                        "fds": .number(Double(tree.fileDescriptors)), "tree_fds": .number(Double(tree.treeFileDescriptors)),
                                        "threads": .number(Double(tree.threads)), "receive_queues": .number(Double(tree.receiveQueueThreads)),
                                        "web_processes": .number(Double(tree.webProcesses)), "xvfb": .number(Double(tree.xvfbServers)),
                                        "redirect_ms": median.map(JSONValue.number) ?? .null]))
            FileHandle.standardError.write(Data((checkpoints.last!.description + "\n").utf8))
            window = []
        }
        checkpoint(0)
        for done in 1...count {
            window.append(try await Self.signIn(pool, scopes: scopes, script: script).redirect)
            if done % every == 0 || done == count { checkpoint(done) }
        }
        let diagnostics = await WebAuthEngine.diagnostics
        print(JSONValue.object(["checkpoints": .array(checkpoints), "live_web_views": .number(Double(diagnostics.liveWebViews)),
                                "windows": .number(Double(diagnostics.toplevelWindows))]).description)
    }

    struct Timing: Sendable {
        let redirect: Double
        let tokens: Double
    }

    /// One sign-in: the time until the redirect is captured, and until the ID token is validated.
    static func signIn(_ pool: SignInPool, scopes: [String], script: LoginScript, timeline: Bool = false) async throws -> Timing {
        let captured = Capture()
        _ = try await pool.signIn(scopes: scopes) { session in
            let events = session.events
            Task {
                for await event in events {
                    if case .navigation(let decision) = event, decision.verdict == .captured { captured.mark() }
                    if case .progress = event { continue }
                    if timeline { captured.log("\(event)") }
                }
            }
            try await script.run(in: session)
        }
        let tokens = ContinuousClock.now - captured.start
        if timeline { captured.log("tokens") }
        return Timing(redirect: milliseconds(captured.elapsed ?? tokens), tokens: milliseconds(tokens))
    }

    /// When the redirect was captured, since the sign-in started.
    final class Capture: Sendable {
        let start = ContinuousClock.now
        private let captured = Mutex<Duration?>(nil)

        func mark() { captured.withLock { $0 = ContinuousClock.now - start } }
        var elapsed: Duration? { captured.withLock { $0 } }
        func log(_ what: String) {
            FileHandle.standardError.write(Data(String(format: "%7.1f ms %@\n", milliseconds(ContinuousClock.now - start), String(what.prefix(100))).utf8))
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
