import Foundation

/// The script an interpreter runs, from its command line: for `python3 -u /usr/bin/tool.py`, the
/// tool is the app, not Python. The first argument that is not an option (nor an option's value,
/// read as ``InterpreterSyntax`` says) is the script, made absolute against the process's working
/// directory. Code on the command line (`python3 -cCODE`, `perl -e`, `node --eval=`, `bash -c`),
/// a module (`-m`), standard input or an interactive interpreter run no file of their own: the
/// interpreter alone names them, so a script named after the code is never taken for the app.
enum InterpreterScript {
    /// The script `executable` runs according to `commandLine` (`argv`), or `nil` for a program
    /// that is no interpreter, or one that runs no file.
    static func script(executable: String, commandLine: [String], workingDirectory: String?) -> String? {
        guard let syntax = InterpreterSyntax.of(executable) else { return nil }
        var arguments = commandLine.dropFirst()[...]
        while let argument = arguments.popFirst() {
            if argument == "--" { break }
            if argument == "-" {
                if syntax.dashIsStandardInput { return nil }
                break
            }
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2).prefix { $0 != "=" })
                if syntax.longNoScriptOptions.contains(name) { return nil }
                if syntax.longValueOptions.contains(name) && !argument.contains("=") { arguments = arguments.dropFirst() }
            } else if argument.hasPrefix("-") || (syntax.plusOptions && argument.hasPrefix("+")) {
                // Perl reads on after a space inside one argument (`"-Ilib -e"`): no guessing at that.
                if argument.contains(where: \.isWhitespace) { return nil }
                var cluster = argument.dropFirst()[...]
                while let option = cluster.popFirst() {
                    if syntax.noScriptOptions.contains(option) { return nil }
                    if syntax.valueOptions.contains(option) {
                        if cluster.isEmpty { arguments = arguments.dropFirst() }
                        break
                    }
                    if syntax.attachedOptions.contains(option) { break }
                }
            } else {
                return absolute(argument, in: workingDirectory)
            }
        }
        guard let script = arguments.first, !(script == "-" && syntax.dashIsStandardInput) else { return nil }
        return absolute(script, in: workingDirectory)
    }

    private static func absolute(_ path: String, in directory: String?) -> String {
        guard !path.hasPrefix("/"), let directory else { return path }
        return URL(fileURLWithPath: directory).appendingPathComponent(path).standardizedFileURL.path
    }
}
