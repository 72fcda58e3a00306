import ArgumentParser
import WebAuthCommandLine

/// What the authorization request asks for beyond the client's settings: `--scope` and
/// `--param`, shared by the commands that open the provider's page (`login`, `record`).
struct AuthorizationRequestOptions: ParsableArguments {
    @Option(name: .customLong("scope"), help: "A scope to ask for (repeatable, or space-separated). Default: openid profile offline_access.")
    var scopes: [String] = []

    @Option(name: .customLong("param"), help: ArgumentHelp("An extra authorization parameter (repeatable), e.g. acr_values=idp:google or prompt=login.",
                                                           valueName: "name=value"))
    var parameters: [String] = []

    /// The scopes asked for: these options', else the configuration's (`settings`), else the default.
    func scopes(_ settings: ClientSettings) -> [String] {
        scopes.isEmpty ? settings.scopes ?? ["openid", "profile", "offline_access"] : scopes.flatMap { $0.split(separator: " ").map(String.init) }
    }

    /// The authorization parameters: the configuration's, overridden by `--param`.
    func parameters(_ settings: ClientSettings) throws(CommandFailure) -> [String: String] {
        settings.parameters.merging(try Login.parameters(parameters)) { $1 }
    }
}
