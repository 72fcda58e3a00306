import ArgumentParser
import Foundation
import OpenIDConnect

/// `docker-credential-webauth <get|list|erase|store>`: Docker's credential-helper protocol. The
/// `webauth` executable answers it when started under that name (a symlink on `PATH`, which
/// `scripts/install` makes), and as `webauth docker-credential`.
struct DockerCredential: AsyncParsableCommand {
    /// The name Docker looks for on `PATH` for `"credsStore": "webauth"` or `"credHelpers"`.
    static let programName = "docker-credential-webauth"
    /// What the reference helpers print (on stdout, exit 1) for a server they hold nothing for;
    /// Docker reads exactly this text.
    static let notFound = "credentials not found in native keychain"

    static let configuration = CommandConfiguration(
        commandName: "docker-credential",
        abstract: "A Docker credential helper (run as docker-credential-webauth): the access token as a registry's password.",
        discussion: """
            In ~/.docker/config.json: "credHelpers": {"registry.example.com": "webauth"}, with \
            docker-credential-webauth on PATH (a symlink to webauth; scripts/install makes it). get reads the \
            server URL on stdin and prints {"ServerURL", "Username": "oauth2", "Secret": the access token}; \
            list prints the hosts credential_hosts maps ({"host": "oauth2"}); erase drops the cached access token; \
            store is refused (the token is webauth's: run webauth login). A host that credential_hosts does not \
            map gets "\(notFound)" and exit 1. Pairs with git-credential and kubernetes-credential.
            """)

    /// What Docker asks.
    enum Operation: String, ExpressibleByArgument, CaseIterable {
        /// Credentials for the server URL on stdin.
        case get
        /// The hosts this helper answers for.
        case list
        /// The credential failed, or `docker logout`: drop the cached access token.
        case erase
        /// `docker login` would save a password: refused.
        case store
    }

    @Argument(help: "get, list, erase or store (as Docker calls it).")
    var operation: Operation

    @OptionGroup var helper: CredentialHelperOptions

    func run() async throws {
        try await reportingFailures(ifInterrupted: "no credential was given") {
            // Docker shows a helper's stdout as the error: the one line goes there too.
            do { try await answer() } catch let failure as CommandFailure {
                print(failure.message)
                throw failure
            }
        }
    }

    private func answer() async throws {
        let hosts = try helper.hosts()
        switch operation {
        case .store:
            throw CommandFailure(.usage, "docker-credential-webauth does not store passwords: the registry's credential is the access token "
                + "of a webauth sign-in", advice: "Run `webauth login`, and remove the registry from `docker login`.")
        case .list:
            let mapped = (hosts.profiles ?? [:]).filter { helper.profile.profile == nil || $0.value == helper.profile.profile }
            print(JSONValue.object(mapped.mapValues { _ in .string("oauth2") }).description)
        case .get, .erase:
            let serverURL = String(decoding: FileHandle.standardInput.readToEndRetryingInterruptions() ?? Data(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard let host = CredentialHosts.host(ofServerURL: serverURL), let manager = try await helper.manager(for: host, in: hosts) else {
                print(Self.notFound)
                throw ExitCode(1)
            }
            try await CredentialHelperOptions.serve(erase: operation == .erase, with: manager) { token in
                print(JSONValue.object(["ServerURL": .string(serverURL), "Username": .string("oauth2"), "Secret": .string(token)]).description)
            }
        }
    }
}
