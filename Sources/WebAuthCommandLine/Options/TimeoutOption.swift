import ArgumentParser

/// `--timeout` for the commands that only send requests to the provider (`token`, `exec`, `env`,
/// `userinfo`): as for `login`, the seconds the whole command may take, every request included;
/// a provider that does not answer by then ends the command with exit 5.
package struct TimeoutOption: ParsableArguments {
    /// The command-line parser makes it.
    package init() {}

    /// The default: no page and no person to wait for, so as long as one request used to be given.
    package static let defaultSeconds = 30

    @Option(help: ArgumentHelp("Seconds the whole command may take, every request to the provider included.", valueName: "seconds"))
    package var timeout: Int = defaultSeconds

    package func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The end of `--timeout`, counted from now.
    package func deadline() -> CommandDeadline { CommandDeadline(seconds: timeout) }
}
