import ArgumentParser

/// `webauth`: sign in to OAuth 2.0 / OpenID Connect providers from the command line.
@main
struct WebAuth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webauth",
        abstract: "Sign in through an embedded WebKitGTK view and catch the redirect.",
        subcommands: [Demo.self])
}
