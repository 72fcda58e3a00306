import ArgumentParser

/// The environment variable `exec` and `env` put the access token in.
struct TokenVariableOption: ParsableArguments {
    @Option(help: ArgumentHelp("The environment variable that carries the access token.", valueName: "name"))
    var variable = "ACCESS_TOKEN"

    func validate() throws {
        guard variable.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_]*/) != nil else {
            throw ValidationError("--variable \(variable) is not a variable name: letters, digits and _, not starting with a digit")
        }
    }
}
