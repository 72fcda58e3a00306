import ArgumentParser

/// The environment variable `exec` and `env` put the access token in.
package struct TokenVariableOption: ParsableArguments {
    /// The command-line parser makes it.
    package init() {}

    @Option(help: ArgumentHelp("The environment variable that carries the access token.", valueName: "name"))
    package var variable = "ACCESS_TOKEN"

    package func validate() throws {
        guard variable.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_]*/) != nil else {
            throw ValidationError("--variable \(variable) is not a variable name: letters, digits and _, not starting with a digit")
        }
    }
}
