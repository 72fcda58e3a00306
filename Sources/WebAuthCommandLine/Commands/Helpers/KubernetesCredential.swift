import ArgumentParser
import Foundation
import WebAuthSupport
import OpenIDConnect
import Synchronization

/// `webauth kubernetes-credential`: a client-go exec credential plugin (kubectl, helm, k9s…).
/// Prints an ExecCredential with the saved sign-in's fresh access token; signs in first (device
/// grant, else the browser) when there is none and the plugin may talk to the person.
package struct KubernetesCredential: AsyncParsableCommand {
    /// The command-line parser makes it.
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "kubernetes-credential",
        abstract: "A Kubernetes exec credential plugin: the access token for kubectl, helm, k9s and every client-go program.",
        discussion: """
            In the kubeconfig's users[].user.exec: apiVersion client.authentication.k8s.io/v1, command webauth, \
            args [kubernetes-credential, --profile, NAME], interactiveMode IfAvailable. Prints an ExecCredential \
            (status.token, status.expirationTimestamp) on stdout. When the profile is not signed in (or must sign in \
            again) and KUBERNETES_EXEC_INFO says spec.interactive, it signs in with the device grant when the provider \
            has one, else in the browser, its prompts on stderr (needs --issuer and --client-id, or --config); not \
            interactive, it says so on stderr and exits 6. Pairs with git-credential and docker-credential-webauth.
            """)

    /// The `apiVersion` answered when client-go does not say which it wants.
    package static let apiVersion = "client.authentication.k8s.io/v1"

    @OptionGroup(title: "Saved sign-in") package var profile: ProfileOptions
    @OptionGroup(title: "Provider and client, to sign in when needed") package var client: ClientOptions

    @Option(help: "Seconds the whole command may take: the refresh, and the sign-in when one is needed.")
    package var timeout: Int = 300

    package func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// Runs the plugin as `webauth-tokens` does: with no engine to sign in with, a sign-in it
    /// needs ends in ``EngineRequired``, and the front hands the command to `webauth-engine`.
    package func run() async throws {
        try await run(signingIn: nil)
    }

    /// Runs the plugin; `signingIn` signs in when the profile needs it and the person can be asked
    /// (`webauth-engine`'s, as `webauth login` does without a display); `nil`: ``EngineRequired``.
    package func run(signingIn: (@Sendable (KubernetesCredential, _ reason: String, CommandDeadline) async throws -> AuthState)?) async throws {
        try await reportingFailures(ifInterrupted: "no credential was printed", offering: .timeout) {
            let deadline = CommandDeadline(seconds: timeout)
            let info = try Self.execInfo(CommandEnvironment.original["KUBERNETES_EXEC_INFO"])
            let token: AccessToken?
            do {
                token = try await savedToken(within: deadline)
            } catch let failure as CommandFailure where failure.status == .signInRequired {
                guard info.interactive else {
                    throw CommandFailure(.signInRequired, "\(failure.message); the Kubernetes client runs this plugin without a terminal "
                        + "(spec.interactive is false), so it cannot sign in here",
                        advice: "Run `webauth login --profile \(profile.name)` in a terminal, then retry.")
                }
                guard let signingIn else { throw EngineRequired() }
                token = try await signingIn(self, failure.message, deadline).accessToken(for: .signIn)
            }
            try TokenRelease.check(token?.token ?? "", profile: profile.name, to: .process("the Kubernetes client"))
            print(Self.execCredential(token, apiVersion: info.apiVersion).description)
        }
    }

    /// The saved sign-in's fresh access token: from a running broker when it can stand in for the
    /// saved sign-in (``BrokeredToken``; not with `--config` or a network flag), else from the store.
    private func savedToken(within deadline: CommandDeadline) async throws -> AccessToken? {
        if client.config == nil, client.network.route.routesByDefault,
           let token = try BrokeredToken.fetch(profile: profile, secret: client.secret, minimumValidity: nil, target: .signIn, deadline: deadline) {
            return token
        }
        let manager = try await SavedSignIn(profile: profile, secret: client.secret, route: client.network.route, config: client.config,
                                            deadline: deadline).manager()
        do throws(AuthStateError) { return try await manager.freshAccessToken(minimumValidity: nil) } catch { throw CommandFailure(error) }
    }

    /// What client-go says in `KUBERNETES_EXEC_INFO`: whether the person can be asked, and the
    /// ExecCredential version it wants. Without it (run by hand): interactive when stdin is a terminal.
    package static func execInfo(_ text: String?) throws(CommandFailure) -> (interactive: Bool, apiVersion: String) {
        guard let text, !text.isEmpty else { return (isatty(STDIN_FILENO) == 1, apiVersion) }
        let info: JSONValue
        do { info = try JSONValue(parsing: text) } catch {
            throw CommandFailure(.usage, "KUBERNETES_EXEC_INFO is not JSON: \(error)", advice: "Run the plugin from a Kubernetes client, or unset the variable.")
        }
        let version = info["apiVersion"]?.stringValue.flatMap { $0.hasPrefix("client.authentication.k8s.io/") ? $0 : nil } ?? apiVersion
        return (info["spec"]?["interactive"]?.boolValue ?? false, version)
    }

    /// The ExecCredential of `token`; `expirationTimestamp` (RFC 3339) when its lifetime is known.
    package static func execCredential(_ token: AccessToken?, apiVersion: String) -> JSONValue {
        var status: [String: JSONValue] = ["token": .string(token?.token ?? "")]
        if let expiry = token?.expiresAt {
            status["expirationTimestamp"] = .string(UTCTimestamp.text(expiry))
        }
        return .object(["apiVersion": .string(apiVersion), "kind": .string("ExecCredential"), "status": .object(status)])
    }
}
