/// Which executable runs a command line the shortcut does not answer: `webauth-tokens` for the
/// commands other tools call (no WebKit) and a `login` a running broker may do (``BrokeredLogin``),
/// `webauth-engine` for every other, so that neither an in-process `webauth login` nor `--help`
/// starts `webauth-tokens` only to be handed on again.
package enum CommandRoute {
    /// The commands `webauth-tokens` runs, as a person types them (its `LightCommand`'s; a test holds both lists together).
    package static let tokenCommands: Set<String> = ["token", "exec", "env", "status", "userinfo", "kubernetes-credential",
                                                     "git-credential", "docker-credential"]

    /// Whether `webauth-tokens` runs `arguments` (the process's, its name first): one of its
    /// commands, `--version` alone, or Docker's name for the helper.
    package static func isTokenCommand(_ arguments: [String]) -> Bool {
        if isDockerHelper(arguments) { return true }
        let rest = arguments.dropFirst()
        if rest.elementsEqual(["--version"]) { return true }
        return rest.first.map(tokenCommands.contains) ?? false
    }

    /// Whether the process was started as `docker-credential-webauth` (the symlink Docker finds on `PATH`).
    package static func isDockerHelper(_ arguments: [String]) -> Bool {
        arguments.first?.split(separator: "/").last == "docker-credential-webauth"
    }

    /// The executable that runs `arguments` in `environment`.
    package static func executable(for arguments: [String], environment: [String: String]) -> String {
        isTokenCommand(arguments) || BrokeredLogin(arguments, environment: environment) != nil ? "webauth-tokens" : "webauth-engine"
    }
}
