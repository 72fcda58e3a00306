import ArgumentParser
import Foundation
import OpenIDConnect
import SecretGate

/// `webauth env`: a shell line that exports a fresh access token, for `eval "$(webauth env)"`.
package struct Env: AsyncParsableCommand {
    /// The command-line parser makes it.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "env",
        abstract: #"Print a shell line that exports a fresh access token: eval "$(webauth env)"."#,
        discussion: """
            Prints export ACCESS_TOKEN='...' (or --variable's name), the token single-quoted for \
            sh, bash and zsh. The variable holds the token as it was then: run it again when the \
            token expires, or use webauth exec, which gets a fresh one for each program.
            """)

    @OptionGroup package var access: AccessTokenOptions
    @OptionGroup package var variable: TokenVariableOption

    package func run() async throws {
        try await reportingFailures(ifInterrupted: "nothing was printed", offering: .timeout, profile: access.profile.name) {
            let token = try await access.freshAccessToken(for: .process("the shell that evaluates webauth env")).token
            if TokenText.verdict(token) != .bearerToken {
                FileHandle.standardError.write(Data("Warning: the provider's access token is not an RFC 6750 bearer token (b64token); some programs may refuse it.\n".utf8))
            }
            print("export \(variable.variable)=\(Self.quoted(token))")
        }
    }

    /// `value` in single quotes, each `'` in it written `'\''`: the shell takes it literally.
    package static func quoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
