import ArgumentParser
import Foundation
import OpenIDConnect
import SecretGate

/// `webauth git-credential <get|store|erase>`: git's credential-helper protocol. git writes
/// `key=value` lines (`protocol`, `host`, …) up to a blank line; `get` answers `username=oauth2`
/// and a fresh access token as `password`, only for a site `credential_hosts` maps to a profile
/// (``SecretGate``). An operation git may add later is ignored, as its protocol asks.
package struct GitCredential: CredentialHelperCommand {
    /// The command-line parser makes it.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "git-credential",
        abstract: "A git credential helper: a fresh access token as the password of the https remotes credential_hosts maps.",
        discussion: """
            git config --global credential.helper '!webauth git-credential', and map each host in the configuration \
            file: {"credential_hosts": {"git.example.com": "default"}}. get answers username=oauth2 and the access token \
            as password (Basic authentication, which GitHub, GitLab, Gitea and Azure DevOps accept), only for a mapped \
            host over https (name means port 443, name:port another; http://name:port only for a loopback host); any \
            other host gets no answer, so git asks its next helper. store is ignored (the token is webauth's); erase \
            (git's "this credential failed") drops the cached access token if it is the one git names, so the next get \
            refreshes it; other operations are ignored. Pairs with kubernetes-credential and docker-credential-webauth.
            """)

    @Argument(help: "get, store or erase (as git calls it); any other operation is ignored.")
    package var operation: String

    @OptionGroup package var helper: CredentialHelperOptions

    package func run() async throws {
        try await reportingFailures(ifInterrupted: "no credential was given", offering: .timeout) {
            guard operation == "get" || operation == "erase" else { return }  // store, and operations git may add later
            try await answerRequest(erasing: operation == "erase")
        }
    }

    package static let helperName = "webauth git-credential"
    package static let readsConfigurationFirst = false

    package static func request(in input: Data) -> CredentialHelperRequest? { CredentialHelperRequest(git: input) }

    /// git names the password that failed; with none, no token is dropped.
    package static func failedToken(in request: CredentialHelperRequest) -> String? { request.password ?? "" }

    package func printAnswer(token: String, input: Data) { print("username=oauth2\npassword=\(token)") }

    /// Nothing: git asks its next helper.
    package func noAnswer() {}
}
