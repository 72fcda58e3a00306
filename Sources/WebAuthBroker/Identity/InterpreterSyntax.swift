/// How an interpreter reads its command line, as far as finding its script needs: which options
/// take a value (and how), and which mean that no script file is the program (code on the
/// command line, a module, standard input, a script looked up elsewhere).
///
/// Short options are read as getopt reads them, in clusters: `-Ic` is `-I -c`, and an option
/// that takes a value takes the rest of its cluster (`-cCODE`, `-Wignore`) or, when nothing
/// follows in it, the next argument. Long options take theirs after `=` or as the next argument.
/// Where a reading is unsure, it errs towards "no script" (the interpreter alone names the
/// caller), never towards a script while other code runs.
struct InterpreterSyntax: Sendable {
    /// The executables' names (without a version: `python` is also `python3.11`, `gjs` also `gjs-console`).
    let names: [String]
    /// Short options whose value is the rest of the cluster, else the next argument.
    var valueOptions: Set<Character> = []
    /// Short options whose optional value is the whole rest of the cluster, never the next
    /// argument (perl's `-i.bak`, `-MModule`). Those that take a few characters and go on with the
    /// cluster (perl's `-0777`, `-l`, `-C`, `-d`; ruby's `-W2`) are read as flags instead, their
    /// characters as options: a no-script letter among them (`-0e`) then means no script.
    var attachedOptions: Set<Character> = []
    /// Short options after which no script file is the program.
    var noScriptOptions: Set<Character> = []
    /// Long options (without `--`) that take a value.
    var longValueOptions: Set<String> = []
    /// Long options (without `--`) after which no script file is the program.
    var longNoScriptOptions: Set<String> = []
    /// Whether a lone `-` is standard input (no script file), rather than the end of options (a shell's).
    var dashIsStandardInput = true
    /// Whether `+` also starts options (a shell's `+o pipefail`).
    var plusOptions = false

    /// The syntax of the interpreter `executable` (a path or a name), if it is one.
    static func of(_ executable: String) -> InterpreterSyntax? {
        let name = executable.split(separator: "/").last.map(String.init) ?? executable
        return known.first { syntax in
            syntax.names.contains { base in
                name == base || (name.hasPrefix(base) && name.dropFirst(base.count).first.map { $0.isNumber || $0 == "." || $0 == "-" } == true)
            }
        }
    }

    /// The interpreters known, each from its manual page (python 3, perl 5, node 20, gjs 1.74, ruby 3, POSIX shells).
    static let known: [InterpreterSyntax] = [
        InterpreterSyntax(names: ["python"], valueOptions: ["W", "X", "Q"], noScriptOptions: ["c", "m"],
                          longValueOptions: ["check-hash-based-pycs"]),
        // -S looks the script up in PATH, so the argument is not the file that runs.
        InterpreterSyntax(names: ["perl"], valueOptions: ["I"], attachedOptions: ["F", "i", "M", "m", "V", "x"],
                          noScriptOptions: ["e", "E", "S"]),
        InterpreterSyntax(names: ["node", "nodejs"], valueOptions: ["r", "C"], noScriptOptions: ["e", "p"],
                          longValueOptions: ["allow-fs-read", "allow-fs-write", "build-snapshot-config", "conditions", "cpu-prof-dir",
                                             "cpu-prof-interval", "cpu-prof-name", "debug-port", "diagnostic-dir", "disable-proto",
                                             "disable-warning", "dns-result-order", "env-file", "env-file-if-exists", "experimental-default-type",
                                             "experimental-loader", "experimental-policy", "experimental-sea-config", "heap-prof-dir",
                                             "heap-prof-interval", "heap-prof-name", "heapsnapshot-near-heap-limit", "heapsnapshot-signal",
                                             "icu-data-dir", "import", "input-type", "inspect-port", "inspect-publish-uid", "loader",
                                             "max-http-header-size", "network-family-autoselection-attempt-timeout", "openssl-config",
                                             "policy-integrity", "redirect-warnings", "report-dir", "report-directory", "report-filename",
                                             "report-signal", "require", "secure-heap", "secure-heap-min", "snapshot-blob", "test-concurrency",
                                             "test-name-pattern", "test-reporter", "test-reporter-destination", "test-shard", "test-skip-pattern",
                                             "test-timeout", "title", "tls-cipher-list", "tls-keylog", "trace-event-categories",
                                             "trace-event-file-pattern", "trace-require-module", "unhandled-rejections", "use-largepages",
                                             "v8-pool-size", "watch-path"],
                          longNoScriptOptions: ["eval", "print", "run"]),
        InterpreterSyntax(names: ["gjs"], valueOptions: ["I"], noScriptOptions: ["c"],
                          longValueOptions: ["include-path", "coverage-prefix", "coverage-output"], longNoScriptOptions: ["command"]),
        // -C changes directory first, so a relative script is not where the broker would look.
        InterpreterSyntax(names: ["ruby"], valueOptions: ["I", "r", "E"], attachedOptions: ["F", "i", "x"],
                          noScriptOptions: ["e", "S", "C"],
                          longValueOptions: ["enable", "disable", "dump", "encoding", "external-encoding", "internal-encoding",
                                             "backtrace-limit", "crash-report", "parser"]),
        InterpreterSyntax(names: ["bash", "dash", "sh", "zsh", "ksh", "mksh"], valueOptions: ["o", "O"], noScriptOptions: ["c", "s"],
                          longValueOptions: ["rcfile", "init-file"], dashIsStandardInput: false, plusOptions: true),
    ]
}
