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

    /// The names of its subcommands, as a person types them: `CommandRoute.tokenCommands`, which the
    /// front routes here.
    static var names: Set<String> { Set(configuration.subcommands.map { $0._commandName }) }
}
