import ArgumentParser
import Foundation
import OpenIDConnect
import SignInFiles
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// How the page and the requests reach the network: the proxy, a private CA, a client certificate,
/// the languages and the sites trusted for Negotiate (flags, else the `--config` file, else the environment).
package struct NetworkOptions: ParsableArguments {
    /// The command-line parser makes it.
    package init() {}

    @OptionGroup package var route: RouteOptions

    @Option(name: .customLong("language"),
            help: ArgumentHelp("A language to ask the provider's page for, e.g. fr-CA (repeatable, or a comma list; language in --config): its Accept-Language and ui_locales. Default: your locale's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), without ui_locales.",
                               valueName: "tag"))
    package var languages: [String] = []

    @Option(name: .customLong("negotiate-site"),
            help: ArgumentHelp("A site whose pages may ask for Kerberos (Negotiate) and get it from your ticket (kinit first): http(s)://host[:port], exactly that host (repeatable; negotiate_sites in --config). Needs --profile: WebKit does Negotiate only in a session that keeps its data. Default: every https site, no http one.",
                               valueName: "url"))
    package var negotiateSites: [String] = []

    /// The sites the flags, else `file`'s `negotiate_sites` key, trust for Negotiate (empty: libsoup's
    /// rule); the engine checks their form when it takes them (``NetworkSettings/applied(to:)``).
    package func negotiateSites(from file: ConfigurationFile?) throws(CommandFailure) -> [URL] {
        let given = negotiateSites.isEmpty ? try file?.scopes("negotiate_sites") ?? [] : negotiateSites
        return try given.map { text throws(CommandFailure) in
            guard let url = URL(string: text) else {
                throw CommandFailure(.usage, "the Negotiate site '\(text)' must be written http(s)://host[:port], with nothing after it")
            }
            return url
        }
    }

    /// The languages the flags, else `file`'s `language` key, name (empty: the user's locale).
    package func languages(from file: ConfigurationFile?) throws(CommandFailure) -> [String] {
        let given = languages.isEmpty ? try file?.scopes("language") ?? [] : languages
        let tags = given.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for tag in tags where !tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
            throw CommandFailure(.usage, "the language '\(tag)' is not a language tag: write it like fr or fr-CA")
        }
        return tags
    }

    /// The settings these flags, else `file`'s keys, else `saved` (a saved sign-in's route), else
    /// the environment give: one route for the page and every request of the command.
    package func settings(from file: ConfigurationFile?, saved: SavedRoute? = nil, environment: [String: String]) throws(CommandFailure) -> NetworkSettings {
        var settings = try route.settings(from: file, saved: saved, environment: environment)
        settings.languages = try languages(from: file)
        settings.negotiateSites = try negotiateSites(from: file)
        return settings
    }
}
