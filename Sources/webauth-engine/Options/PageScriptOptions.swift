import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine

/// A login script for the provider's page, and what a failed page leaves behind: the options
/// `login` and `logout` share.
struct PageScriptOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A login script (JSON or YAML) to act on the provider's page; secrets come from the environment.",
                               valueName: "file"))
    var script: String?

    @Option(help: ArgumentHelp("Fail when the page stays still this long after the script's last step with no redirect (default: 10; 0: wait for --timeout).",
                               valueName: "seconds"))
    var settleTime: Double?

    @Option(help: ArgumentHelp("Where a failed page leaves its screenshot, page facts and navigation log (default with --script: a new directory under $TMPDIR).",
                               valueName: "directory"))
    var artifacts: String?

    /// The `--script` file with `--settle-time` applied, else `fallback` (with it too).
    func loginScript(orElse fallback: LoginScript? = nil) throws(CommandFailure) -> LoginScript? {
        var loginScript: LoginScript
        if let script {
            do { loginScript = try LoginScript(contentsOfFile: script) } catch { throw CommandFailure(.usage, "\(error)") }
        } else if let fallback {
            loginScript = fallback
        } else {
            return nil
        }
        // Its secrets' variables leave the environment before any page (and web process) exists.
        CommandEnvironment.withholdSecrets(loginScript.environmentVariableNames)
        // A variable it reads that is not set is a mistake in the inputs: said before anything starts.
        if let script, let missing = loginScript.environmentVariableNames.filter({ CommandEnvironment.original[$0] == nil }).sorted().first {
            throw CommandFailure(.usage, "the login script \(script) reads $\(missing), which is not set",
                                 advice: "Set it (export \(missing)=...), or change the script's env: value.")
        }
        if let settleTime {
            guard settleTime >= 0 else { throw CommandFailure(.usage, "--settle-time must not be negative") }
            guard settleTime <= ScriptSeconds.maximum else { throw CommandFailure(.usage, "--settle-time \(ScriptSeconds.tooLong)") }
            loginScript.settleTimeout = LoginScript.settleTimeout(seconds: settleTime)
        }
        return loginScript
    }
}

/// The page side of a sign-in or sign-out: follows the session, runs the script, notes progress.
struct PageScriptRun: Sendable {
    /// The script, if any.
    let script: LoginScript?
    /// The session shown, once it is.
    let shown = SessionBox()
    /// How far the script got.
    let progress = ScriptProgress()
    let narrator: Narrator
    let verbose: Bool
    /// The command's client, which reads the script's `outbox` and `http_auth` values on its route.
    let http: any HTTPClient

    /// `options` with the script's `secret_hosts`, which may receive the client certificate too.
    func applied(to options: WebAuthenticationOptions) -> WebAuthenticationOptions {
        var options = options
        options.secretHosts.formUnion(script?.secretHosts ?? [])
        return options
    }

    /// The `script:` to hand to the client.
    func callAsFunction(_ session: WebAuthenticationSession) async throws {
        shown.session = session
        narrator.follow(session)
        try await script?.run(in: session, environment: CommandEnvironment.original, http: http, artifactsDirectory: Self.artifactsDirectoryFromEnvironment) { [progress, narrator, verbose] number, step in
            progress.starting(number)
            if verbose { narrator.say("step \(number): \(step)") }
        }
        progress.finish()
    }

    /// `$WEBAUTH_ARTIFACTS_DIR`, if set: where every failed script also leaves its report, beside
    /// `--artifacts` (a CI job sets it and keeps the directory). The library reads no such variable.
    private static var artifactsDirectoryFromEnvironment: URL? {
        CommandEnvironment.original["WEBAUTH_ARTIFACTS_DIR"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
    }

    /// The report to leave for `error`, if any (see ``FailureArtifacts/report(of:session:script:progress:requested:)``).
    func report(of error: SignInError, requested: Bool) async -> FailureReport? {
        await FailureArtifacts.report(of: error, session: shown.session, script: script, progress: progress, requested: requested)
    }
}
