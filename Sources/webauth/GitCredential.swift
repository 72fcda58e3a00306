import ArgumentParser
import Foundation
import OpenIDConnect

/// `webauth git-credential <get|store|erase>`: git's credential-helper protocol. git writes
/// `key=value` lines (`protocol`, `host`, …) up to a blank line; `get` answers `username=oauth2`
/// and a fresh access token as `password`, for the hosts ``CredentialHosts`` gives this profile.
struct GitCredential: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-credential",
        abstract: "A git credential helper: a fresh access token as the password of http(s) remotes.",
        discussion: """
            git config --global credential.helper '!webauth git-credential'. get answers username=oauth2 and the \
            access token as password (Basic authentication, which GitHub, GitLab, Gitea and Azure DevOps accept); \
            store is ignored (the token is webauth's); erase (git's "this credential failed") drops the cached \
            access token, so the next get refreshes it. A host that credential_hosts in the configuration file \
            maps to another profile gets no answer, so git asks its next helper. Pairs with kubernetes-credential \
            and docker-credential-webauth.
            """)

    /// What git asks.
    enum Operation: String, ExpressibleByArgument, CaseIterable {
        /// Credentials for the host on stdin.
        case get
        /// git keeps a credential that worked: nothing to do.
        case store
        /// The credential failed: drop the cached access token.
        case erase
    }

    @Argument(help: "get, store or erase (as git calls it).")
    var operation: Operation

    @OptionGroup var helper: CredentialHelperOptions

    func run() async throws {
        try await reportingFailures(ifInterrupted: "no credential was given") {
            let request = Self.attributes(FileHandle.standardInput.readToEndRetryingInterruptions() ?? Data())
            guard operation != .store, let host = request["host"], ["https", "http", nil].contains(request["protocol"]) else { return }
            guard let manager = try await helper.manager(for: host, in: try helper.hosts()) else { return }
            try await CredentialHelperOptions.serve(erase: operation == .erase, with: manager) { print("username=oauth2\npassword=\($0)") }
        }
    }

    /// git's `key=value` lines, up to a blank line (the last value of a repeated key).
    static func attributes(_ data: Data) -> [String: String] {
        var attributes: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            guard let equals = line.firstIndex(of: "=") else { continue }
            attributes[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return attributes
    }
}
