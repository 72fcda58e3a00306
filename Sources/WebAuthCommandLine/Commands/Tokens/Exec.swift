import ArgumentParser
import Foundation
import OpenIDConnect
import Synchronization

/// `webauth exec -- CMD ARGS…`: a program run with a fresh access token in its environment.
package struct Exec: AsyncParsableCommand {
    /// The command-line parser makes it.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a program with a fresh access token in its environment ($ACCESS_TOKEN, or --variable).",
        discussion: """
            webauth gets the token (refreshed as for webauth token), then replaces itself with the \
            program (execvp, as a shell's exec): the program keeps webauth's process ID, receives \
            the signals sent to it, and its exit status is the command's. The token is in the \
            environment only, never on a command line. Example: \
            webauth exec -- sh -c 'curl -H "Authorization: Bearer $ACCESS_TOKEN" https://api.example.com/'. \
            A program that cannot be found exits 127, one that cannot be run 126.
            """)

    @OptionGroup package var access: AccessTokenOptions
    @OptionGroup package var variable: TokenVariableOption

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The program and its arguments, after --.", valueName: "command"))
    package var command: [String] = []

    package func validate() throws {
        guard !command.isEmpty else { throw ValidationError("give the program after --: webauth exec -- CMD ARGS...") }
    }

    package func run() async throws {
        let replacement = ProgramReplacement()  // before any signal handling starts
        let token = Mutex<AccessToken?>(nil)
        try await reportingFailures(ifInterrupted: "the program was not started", offering: .timeout, profile: access.profile.name) {
            let fresh = try await access.freshAccessToken(for: .process("the program of webauth exec"))
            token.withLock { $0 = fresh }
        }
        try await reportingFailures {
            guard let fresh = token.withLock({ $0 }) else { return }
            throw replacement.replace(with: command, adding: [variable.variable: fresh.token])
        }
    }
}
