import Foundation

/// The script an interpreter runs, from its command line: for `python3 -u /usr/bin/tool.py`, the
/// tool is the app, not Python. The first argument that is not an option (nor an option's value)
/// is the script, made absolute against the process's working directory. `python3 -c CODE`, a
/// module (`-m`) or an interactive interpreter run no file: the interpreter alone names them.
enum InterpreterScript {
    /// Interpreters by their executable's name, with their options that take a value as the next argument.
    static let interpreters: [(prefix: String, optionsWithValue: Set<String>, endsOptions: Set<String>)] = [
        ("python", ["-W", "-X", "-Q"], ["-c", "-m", "-"]),
        ("gjs", ["-I", "--include-path", "--coverage-prefix", "--coverage-output", "--profile"], ["-c", "--command"]),
        ("node", ["-r", "--require", "--import", "--loader"], ["-e", "--eval", "-p", "--print", "-"]),
        ("nodejs", ["-r", "--require", "--import", "--loader"], ["-e", "--eval", "-p", "--print", "-"]),
        ("perl", ["-I", "-M", "-m", "-x"], ["-e", "-E", "-"]),
    ]

    /// The script `executable` runs according to `commandLine` (`argv`), or `nil` for a program
    /// that is no interpreter, or one that runs no file.
    static func script(executable: String, commandLine: [String], workingDirectory: String?) -> String? {
        let name = URL(fileURLWithPath: executable).lastPathComponent
        guard let interpreter = interpreters.first(where: { name.hasPrefix($0.prefix) }) else { return nil }
        var arguments = commandLine.dropFirst()[...]
        while let argument = arguments.first {
            arguments = arguments.dropFirst()
            if interpreter.endsOptions.contains(argument) { return nil }
            if argument == "--" { break }
            if argument.hasPrefix("-") {
                if interpreter.optionsWithValue.contains(argument) { arguments = arguments.dropFirst() }
                continue
            }
            return absolute(argument, in: workingDirectory)
        }
        return arguments.first.map { absolute($0, in: workingDirectory) }
    }

    private static func absolute(_ path: String, in directory: String?) -> String {
        guard !path.hasPrefix("/"), let directory else { return path }
        return URL(fileURLWithPath: directory).appendingPathComponent(path).standardizedFileURL.path
    }
}
