import ArgumentParser
import Foundation
import WebAuthCommandLine
import WebAuthSupport

/// The commands `webauth-tokens` runs itself: none of them needs the engine. Its `--help` is
/// never shown: a root help, `help`, `manual` and every other command go to `webauth-engine`.
struct LightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webauth",
        version: WebAuthVersion.current,
        subcommands: [Token.self, Exec.self, Env.self, Status.self, Userinfo.self,
                      KubernetesCredential.self, GitCredential.self, DockerCredential.self])

    /// The names of its subcommands, as a person types them.
    static var names: Set<String> { Set(configuration.subcommands.map { $0._commandName }) }

    /// Whether `webauth-tokens` runs `arguments` (the process's, with its name first) itself:
    /// one of its commands, `--version` alone, or Docker's name for the helper.
    static func serves(_ arguments: [String]) -> Bool {
        if isDockerHelper(arguments) { return true }
        let rest = arguments.dropFirst()
        if rest.elementsEqual(["--version"]) { return true }
        guard let first = rest.first else { return false }
        return names.contains(first)
    }

    /// Whether the process was started as `docker-credential-webauth` (the symlink Docker finds on `PATH`).
    static func isDockerHelper(_ arguments: [String]) -> Bool {
        arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent == DockerCredential.programName } ?? false
    }
}
