import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthExitStatus
import WebAuthSession
import WebAuthCommandLine
import WebAuthSupport

/// `webauth batch FILE`: signs in every user of a batch file with one login script, several at
/// once on one warm engine (``SignInPool``), and prints a JSON line per user.
struct Batch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in a list of test users with one login script, in one process.",
        discussion: """
            FILE (JSON or YAML) lists the users: each a name and the values the script reads with {var: NAME}, \
            a literal or {env: VAR}, {file: PATH}, {command: CMD} (a password only from a source). The sign-ins \
            run headless, --parallel at a time, and nothing is saved. Each prints one JSON line on stdout as it \
            ends (name, status ok or error, exit_status, error, message, subject, expires_in; never a token); \
            --out DIR also writes DIR/NAME.json (0600), with the tokens only with --tokens. --shard I/N signs in \
            only entry k with k mod N = I (/N: I from $JOB_COMPLETION_INDEX). Exits 0 when every sign-in \
            worked (and its --out file was written; else 1), else with the exit status of the first entry in the file that failed.
            """)

    @Argument(help: ArgumentHelp("The batch file (JSON or YAML): a list of {name, values}.", valueName: "file"))
    var file: String

    @OptionGroup(title: "Provider and client") var client: ClientOptions

    @Option(name: .customLong("scope"), help: "A scope to ask for (repeatable, or space-separated). Default: openid profile offline_access.")
    var scopes: [String] = []

    @Option(name: .customLong("param"), help: ArgumentHelp("An extra authorization parameter (repeatable).", valueName: "name=value"))
    var parameters: [String] = []

    @OptionGroup(title: "Login script") var scripting: PageScriptOptions

    @Option(help: ArgumentHelp("How many sign-ins run at once.", valueName: "n"))
    var parallel = 2

    @Option(help: ArgumentHelp("Sign in only shard I of N: entry k (from 0) when k mod N = I; /N takes I from $JOB_COMPLETION_INDEX.",
                               valueName: "I/N"))
    var shard: String?

    @Option(help: ArgumentHelp("Also write each user's result to DIR/NAME.json, created 0600.", valueName: "directory"))
    var out: String?

    @Flag(help: "Put the access, refresh and ID tokens in the --out files (never on stdout).")
    var tokens = false

    @Option(help: "Seconds each sign-in may take.")
    var timeout = 120

    @Flag(help: "Log the engine's navigation decisions, page loads and failed loads (values redacted) on stderr.")
    var verbose = false

    func validate() throws {
        guard parallel > 0 else { throw ValidationError("--parallel must be at least 1") }
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
        guard !tokens || out != nil else { throw ValidationError("--tokens goes with --out DIR: tokens are never printed") }
    }

    func run() async throws {
        try await reportingFailures(ifInterrupted: "the batch was cancelled; the sign-ins under way were stopped", offering: [.verbose, .timeout]) {
            let narrator = Narrator(verbose: verbose, quiet: true)
            let settings = try client.resolve()
            guard let script = try scripting.loginScript() else { throw CommandFailure(.usage, "webauth batch needs --script FILE") }
            let batch: LoginBatch
            do { batch = try LoginBatch(contentsOfFile: file) } catch { throw CommandFailure(.usage, "\(error)") }
            var entries = batch.entries
            if let shard {
                let chosen = try Shard(shard)
                entries = batch.shard(chosen.index, of: chosen.count)
            }
            try Self.check(entries, against: script)
            CommandEnvironment.withholdSecrets(batch.entries.flatMap { $0.values.values.flatMap(\.environmentVariableNames) })
            let directory = out.map { URL(fileURLWithPath: $0) }
            if let directory {
                do { try PrivateFile.makeDirectory(directory) } catch { throw CommandFailure(.localFailure, "cannot create --out \(error)") }
            }
            let http = settings.network.http(timeout: .seconds(timeout))
            try settings.network.prepareEngine(websiteData: SignInPool.defaultOptions.websiteData)
            let pool = SignInPool(client: settings.client(http: http),
                                  width: parallel, options: sessionOptions(settings, script: script))
            if !entries.isEmpty {
                do throws(WebAuthenticationError) { try await pool.prewarm() } catch { throw CommandFailure(SignInError.session(error)) }
            }
            let scopes = scopes.isEmpty ? settings.scopes ?? ["openid", "profile", "offline_access"]
                : scopes.flatMap { $0.split(separator: " ").map(String.init) }
            let parameters = settings.parameters.merging(try Login.parameters(parameters)) { $1 }
            var failed: [String: ExitStatus] = [:]
            await withTaskGroup(of: BatchResult.self) { group in
                for entry in entries {
                    group.addTask {
                        var script = script
                        script.variables = entry.values
                        let page = PageScriptRun(script: script, narrator: narrator, verbose: verbose, http: http)
                        return BatchResult(name: entry.name, outcome: await signIn(entry.name, in: pool, scopes: scopes,
                                                                                  parameters: parameters, page: page))
                    }
                }
                for await result in group {
                    if result.status != .success { failed[result.name] = result.status }
                    FileHandle.standardOutput.write(Data((result.json().description + "\n").utf8))  // unbuffered: each line as it ends
                    if let directory, !Self.write(result, to: directory, tokens: tokens, narrator), result.status == .success {
                        failed[result.name] = .localFailure  // signed in, but its result is not where the caller looks
                    }
                }
            }
            if let first = entries.first(where: { failed[$0.name] != nil }), let status = failed[first.name] {
                throw ExitCode(status.rawValue)
            }
        }
    }

    /// Headless, ephemeral sessions of `--timeout` each, with the client's languages, proxy and authorities.
    private func sessionOptions(_ settings: ClientSettings, script: LoginScript) -> WebAuthenticationOptions {
        var options = SignInPool.defaultOptions
        options.timeout = .seconds(timeout)
        options.secretHosts = script.secretHosts  // the client certificate may go there too
        return settings.network.applied(to: options)
    }

    /// Signs in one entry; a failure is its ``CommandFailure``, with where its artefacts are (a
    /// folder of its own under `--artifacts`, else under $TMPDIR) when its script failed.
    private func signIn(_ name: String, in pool: SignInPool, scopes: [String], parameters: [String: String],
                        page: PageScriptRun) async -> Result<SignInResult, CommandFailure> {
        do throws(SignInError) {
            return .success(try await pool.signIn(scopes: scopes, additionalParameters: parameters, script: { try await page($0) }))
        } catch {
            let failure = CommandFailure(error)
            guard !Task.isCancelled, let report = await page.report(of: error, requested: scripting.artifacts != nil) else { return .failure(failure) }
            let folder = scripting.artifacts.map { URL(fileURLWithPath: $0).appendingPathComponent(name).path }
            return .failure(CommandFailure(failure.status, failure.message + FailureArtifacts.leave(report, in: folder)))
        }
    }

    /// Every variable the script reads must be in every entry: else a usage error before any sign-in.
    private static func check(_ entries: [LoginBatch.Entry], against script: LoginScript) throws(CommandFailure) {
        for entry in entries {
            guard let missing = script.variableNames.subtracting(entry.values.keys).sorted().first else { continue }
            throw CommandFailure(.usage, "the batch entry \(entry.name) has no value \(missing), which the script reads ({var: \(missing)})")
        }
    }

    /// Writes `result` to `directory`/NAME.json (0600, atomically); false, with a warning, if it cannot.
    private static func write(_ result: BatchResult, to directory: URL, tokens: Bool, _ narrator: Narrator) -> Bool {
        let file = directory.appendingPathComponent("\(result.name).json")
        do { try PrivateFile.write(Data((result.json(tokens: tokens).description + "\n").utf8), to: file) } catch {
            narrator.warn("the result of \(result.name) could not be written: \(error)")
            return false
        }
        return true
    }
}
