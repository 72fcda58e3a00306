import ArgumentParser
import Foundation
import OpenIDConnect
import PrivateDisplay
import WebAuthCommandLine
import WebAuthSupport

/// `webauth`: sign in to OAuth 2.0 / OpenID Connect providers from the command line.
@main
struct WebAuth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webauth",
        abstract: "Sign in to OpenID Connect providers through an embedded WebKitGTK view and catch the redirect.",
        discussion: """
            Exit statuses: 0 success; 1 a local failure (no display, the saved sign-in unusable; for doctor, a check failed); \
            2 cancelled or denied by the person; 3 a provider or protocol error; 4 a network or TLS \
            error; 5 timed out; 6 not signed in (run webauth login); 7 the login script failed; \
            8 the page needs a person (a captcha, a passkey or security key); \
            64 a usage or configuration error; 126 and 127 the program of webauth exec cannot be run or \
            is not found; 130 interrupted by Ctrl-C (SIGINT); 143 stopped by SIGTERM.
            """,
        version: WebAuthVersion.current,
        subcommands: [Demo.self, Login.self, Record.self, Register.self, Batch.self, Token.self, Exec.self, Env.self, Userinfo.self, Status.self, Logout.self, Profiles.self, Doctor.self, Provider.self,
                      KubernetesCredentialCommand.self, GitCredential.self, DockerCredential.self, Manual.self, BrokerCommand.self])

    /// Runs the command line, with ``SecretVariables/known`` withheld from the environment; started as `docker-credential-webauth` (a symlink), Docker's
    /// credential-helper protocol (``DockerCredential``).
    static func main() async {
        // The private Xvfb `webauth` started for this process, if any, is taken (and its variable
        // removed) before anything else reads the environment.
        XvfbHandOver.receive(CommandEnvironment.take(XvfbHandOver.variable))
        // Our secret variables are read into memory and leave the environment before any command
        // runs: WebKit's processes and every program started later inherit what is left.
        CommandEnvironment.withholdSecrets()
        CommandEnvironment.provideEngineRuntimeDirectory()
        if let failure = unknownCommand(CommandLine.arguments.dropFirst().first) {
            FileHandle.standardError.write(Data(failure.line(offering: []).utf8))
            Foundation.exit(failure.status.rawValue)
        }
        guard URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent == DockerCredential.programName else { return await main(nil) }
        if let failure = DockerCredential.unknownOperation(CommandLine.arguments.dropFirst().first) {
            print(failure.message)  // Docker shows a helper's stdout as its error
            FileHandle.standardError.write(Data(failure.line(offering: []).utf8))
            Foundation.exit(failure.status.rawValue)
        }
        await DockerCredential.main(Array(CommandLine.arguments.dropFirst()))
    }

    /// A first argument that names no command (`webauth tokn`): the command it is closest to, or
    /// the commands there are. ArgumentParser alone says only "Unexpected argument".
    static func unknownCommand(_ first: String?) -> CommandFailure? {
        guard let first, !first.hasPrefix("-"), URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent != DockerCredential.programName
        else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        return CommandFailure(.usage, Spelling.unknown("command", first, among: names))
    }
}
