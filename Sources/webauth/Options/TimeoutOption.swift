import ArgumentParser

/// `--timeout` for the commands that only send requests to the provider (`token`, `exec`, `env`,
/// `userinfo`): as for `login`, the seconds the whole command may take, every request included;
/// a provider that does not answer by then ends the command with exit 5.
struct TimeoutOption: ParsableArguments {
    /// The default: no page and no person to wait for, so as long as one request used to be given.
    static let defaultSeconds = 30

    @Option(help: ArgumentHelp("Seconds the whole command may take, every request to the provider included.", valueName: "seconds"))
    var timeout: Int = defaultSeconds

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The end of `--timeout`, counted from now.
    func deadline() -> CommandDeadline { CommandDeadline(seconds: timeout) }
}
