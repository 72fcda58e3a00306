import ArgumentParser
import Foundation
import OpenIDConnect
import SecretGate
import WebAuthSupport

/// `docker-credential-webauth <get|list|erase|store>`: Docker's credential-helper protocol. The
/// `webauth` executable answers it when started under that name (a symlink on `PATH`, which
/// `scripts/install` makes), and as `webauth docker-credential`.
package struct DockerCredential: CredentialHelperCommand {
    /// The command-line parser makes it.
    package init() {}

    /// The name Docker looks for on `PATH` for `"credsStore": "webauth"` or `"credHelpers"`.
    package static let programName = "docker-credential-webauth"
    /// What the reference helpers print (on stdout, exit 1) for a server they hold nothing for;
    /// Docker reads exactly this text.
    package static let notFound = "credentials not found in native keychain"

    package static let configuration = CommandConfiguration(
        commandName: "docker-credential",
        abstract: "A Docker credential helper (run as docker-credential-webauth): the access token as a registry's password.",
        discussion: """
            In ~/.docker/config.json: "credHelpers": {"registry.example.com": "webauth"}, with \
            docker-credential-webauth on PATH (a symlink to webauth; scripts/install makes it), and the registry \
            mapped in the configuration file: {"credential_hosts": {"registry.example.com": "default"}}. get reads the \
            server URL on stdin and prints {"ServerURL", "Username": "oauth2", "Secret": the access token}, only for \
            a mapped registry over https (http only for a loopback host whose key says http://); list prints the \
            registries that Docker's configuration sends to this helper (credHelpers, or auths with "credsStore": \
            "webauth") and get serves ({"registry.example.com": "oauth2"}), never a git host; erase drops the cached \
            access token; store is refused (the token is webauth's: run webauth login); version prints webauth's version. A registry that \
            credential_hosts does not map gets "\(notFound)" and exit 1. Pairs with git-credential and kubernetes-credential.
            """)

    /// What Docker asks.
    package enum Operation: String, ExpressibleByArgument, CaseIterable {
        /// Credentials for the server URL on stdin.
        case get
        /// The hosts this helper answers for.
        case list
        /// The credential failed, or `docker logout`: drop the cached access token.
        case erase
        /// `docker login` would save a password: refused.
        case store
        /// The helper's version (the reference helpers answer it).
        case version
    }

    @Argument(help: "get, list, erase, store or version (as Docker calls it).")
    package var operation: Operation

    @OptionGroup package var helper: CredentialHelperOptions

    package func run() async throws {
        try await reportingFailures(ifInterrupted: "no credential was given", offering: .timeout) {
            // Docker shows a helper's stdout as the error: the one line goes there too.
            do { try await answer() } catch let failure as CommandFailure {
                print(failure.message)
                throw failure
            }
        }
    }

    private func answer() async throws {
        switch operation {
        case .version:
            print("docker-credential-webauth (webauth) \(WebAuthVersion.current)")
        case .store:
            throw CommandFailure(.usage, "docker-credential-webauth does not store passwords: the registry's credential is the access token "
                + "of a webauth sign-in", advice: "Run `webauth login`, and remove the registry from `docker login`.")
        case .list:
            print(JSONValue.object(Dictionary(uniqueKeysWithValues: try listed().map { ($0, .string("oauth2")) })).description)
        case .get, .erase:
            try await answerRequest(erasing: operation == .erase)
        }
    }

    /// What `list` names: the registries Docker's own configuration sends to this helper (a
    /// `credHelpers` entry, or `auths` when it is the `credsStore`) that `get` serves, as Docker names
    /// them. `credential_hosts` is shared with git: its keys alone would list git hosts, and in their
    /// URL form (`https://…`), as registries, and Docker hands every listed credential to a build.
    private func listed() throws(CommandFailure) -> [String] {
        let gate = try helper.gate()
        let docker = try DockerConfigFile(environment: CommandEnvironment.original)
        return docker.registries(sentTo: String(Self.programName.dropFirst("docker-credential-".count))).filter { server in
            guard let request = CredentialHelperRequest(dockerServerURL: server) else { return false }
            return (try? gate.tokenProfile(for: request.site, only: helper.profile.profile)) != nil
        }.sorted()
    }

    /// An action Docker's protocol does not have, as `docker-credential-webauth ACTION` (the symlink)
    /// gives it: ArgumentParser would send the person to `docker-credential --help`, a program that
    /// does not exist. `nil` for an action, an option or no argument.
    package static func unknownOperation(_ first: String?) -> CommandFailure? {
        guard let first, !first.hasPrefix("-"), Operation(rawValue: first) == nil else { return nil }
        return CommandFailure(.usage, Spelling.unknown("action", first, among: Operation.allCases.map(\.rawValue)),
                              advice: "See `webauth docker-credential --help`.")
    }

    package static let helperName = programName
    package static let readsConfigurationFirst = true

    package static func request(in input: Data) -> CredentialHelperRequest? { CredentialHelperRequest(dockerServerURL: serverURL(in: input)) }

    /// Docker names no token: `erase` drops the cached one.
    package static func failedToken(in request: CredentialHelperRequest) -> String? { nil }

    package func printAnswer(token: String, input: Data) {
        print(JSONValue.object(["ServerURL": .string(Self.serverURL(in: input)), "Username": .string("oauth2"), "Secret": .string(token)]).description)
    }

    /// Docker's "not found": the text it reads, and exit 1.
    package func noAnswer() throws {
        print(Self.notFound)
        throw ExitCode(1)
    }

    /// The server URL Docker wrote on stdin.
    private static func serverURL(in input: Data) -> String {
        String(decoding: input, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
