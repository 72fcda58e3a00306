import ArgumentParser
import Foundation
import WebAuthCommandLine
import WebAuthFront

/// `webauth-tokens`, which `webauth` becomes for what its shortcut does not answer: the commands
/// scripts and other tools call most (`token`, `env`, `exec`, `status`, `userinfo`, the git, Docker
/// and Kubernetes credential helpers, `--version`) run here, refreshes and the keyring included,
/// without loading WebKitGTK or GTK, and so does a `login` a running broker can do
/// (``LoginThroughBroker``); every other command, help and the manual are `webauth-engine`'s,
/// which this process becomes in turn.
@main
enum TokenCommands {
    static func main() async {
        let arguments = CommandLine.arguments
        let login = BrokeredLogin(arguments, environment: ProcessInfo.processInfo.environment)
        guard CommandRoute.isTokenCommand(arguments) || login != nil else { SiblingExecutable.replaceProcess("webauth-engine", arguments: arguments) }
        // As in the engine: our secret variables leave the environment before any command runs,
        // so a program `exec` starts never inherits them.
        CommandEnvironment.withholdSecrets()
        CommandEnvironment.provideRuntimeDirectory()
        do {
            if let login {
                try await LoginThroughBroker.run(login)
            } else if CommandRoute.isDockerHelper(arguments) {
                if let failure = DockerCredential.unknownOperation(arguments.dropFirst().first) {
                    print(failure.message)  // Docker shows a helper's stdout as its error
                    FileHandle.standardError.write(Data(failure.line(offering: []).utf8))
                    Foundation.exit(failure.status.rawValue)
                }
                var command = try DockerCredential.parseAsRoot(Array(arguments.dropFirst()))
                try await run(&command)
            } else {
                var command = try LightCommand.parseAsRoot(Array(arguments.dropFirst()))
                try await run(&command)
            }
        } catch is EngineRequired {
            CommandEnvironment.removeRuntimeDirectory()  // the engine makes its own; no exit handler runs after execve
            SiblingExecutable.replaceProcess("webauth-engine", arguments: arguments, environment: CommandEnvironment.original)
        } catch {
            LightCommand.exit(withError: error)
        }
    }

    /// Runs a parsed command, async or not.
    private static func run(_ command: inout any ParsableCommand) async throws {
        if var command = command as? any AsyncParsableCommand { try await command.run() } else { try command.run() }
    }
}
