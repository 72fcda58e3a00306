import ArgumentParser
import Foundation

/// How the page and the requests reach the network: languages for now (flags, else the `--config` file).
struct NetworkOptions: ParsableArguments {
    @Option(name: .customLong("language"),
            help: ArgumentHelp("A language to ask the provider's page for, e.g. fr-CA (repeatable, or a comma list; language in --config): its Accept-Language and ui_locales. Default: your locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), without ui_locales.",
                               valueName: "tag"))
    var languages: [String] = []

    /// The languages the flags, else `file`'s `language` key, name (empty: the user's locale).
    func languages(from file: ConfigurationFile?) throws(CommandFailure) -> [String] {
        let given = languages.isEmpty ? try file?.scopes("language") ?? [] : languages
        let tags = given.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for tag in tags where !tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
            throw CommandFailure(.usage, "the language '\(tag)' is not a language tag: write it like fr or fr-CA")
        }
        return tags
    }
}
