import ArgumentParser
import Foundation
import OpenIDConnect
import Synchronization

/// `webauth kubernetes-credential`: a client-go exec credential plugin (kubectl, helm, k9s…).
/// Prints an ExecCredential with the saved sign-in's fresh access token; signs in first (device
/// grant, else the browser) when there is none and the plugin may talk to the person.
struct KubernetesCredential: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
    static let apiVersion = "client.authentication.k8s.io/v1"

    @OptionGroup(title: "Saved sign-in") var profile: ProfileOptions
    @OptionGroup(title: "Provider and client, to sign in when needed") var client: ClientOptions

    @Option(help: "Seconds the whole command may take: the refresh, and the sign-in when one is needed.")
    var timeout: Int = 300

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() async throws {
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
                token = try await signIn(because: failure.message, within: deadline).accessToken(for: .signIn)
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

    /// Signs in as `webauth login` does without a display, within what is left of `deadline`, and
    /// saves the sign-in in the profile.
    private func signIn(because reason: String, within deadline: CommandDeadline) async throws -> AuthState {
        guard client.config != nil || client.issuer != nil || client.user != nil else {
            throw CommandFailure(.signInRequired, "\(reason), and the plugin cannot sign in without a provider",
                                 advice: "Add --issuer and --client-id (or --config) to the exec args, or run `webauth login --profile \(profile.name)`.")
        }
        let settings = try client.resolve()
        let scopes = settings.scopes ?? ["openid", "profile", "offline_access"]
        let flows = OtherLoginFlows(settings: settings, client: settings.client(http: deadline.http(settings.network)), deadline: deadline, scopes: scopes,
                                    parameters: settings.parameters, browserCommand: nil, verbose: false)
        let name = profile.name
        guard let store = try await ProfileStore.forSaving(name: name, choice: profile.store ?? settings.store) else {
            return try await flows.withoutDisplay(reason: "The Kubernetes client needs a credential (\(reason))")
        }
        let signedIn = Mutex<AuthState?>(nil)
        try await ProfileStore.whileHoldingLock(of: name, waitingAtMost: deadline.remaining) {
            var state = try await flows.withoutDisplay(reason: "The Kubernetes client needs a credential (\(reason))")
            state.client = settings.savedClient(scopes: scopes, secret: client.secret.reference(), for: state.configuration)
            state.client?.route = settings.network.saved
            do throws(AuthStateStoreError) { try await store.save(state) } catch { throw CommandFailure(error) }
            signedIn.withLock { $0 = state }
        }
        // whileHoldingLock runs the body or throws: a sign-in is there.
        guard let state = signedIn.withLock({ $0 }) else { throw CommandFailure(.localFailure, "the sign-in was not saved") }
        return state
    }

    /// What client-go says in `KUBERNETES_EXEC_INFO`: whether the person can be asked, and the
    /// ExecCredential version it wants. Without it (run by hand): interactive when stdin is a terminal.
    static func execInfo(_ text: String?) throws(CommandFailure) -> (interactive: Bool, apiVersion: String) {
        guard let text, !text.isEmpty else { return (isatty(STDIN_FILENO) == 1, apiVersion) }
        let info: JSONValue
        do { info = try JSONValue(parsing: text) } catch {
            throw CommandFailure(.usage, "KUBERNETES_EXEC_INFO is not JSON: \(error)", advice: "Run the plugin from a Kubernetes client, or unset the variable.")
        }
        let version = info["apiVersion"]?.stringValue.flatMap { $0.hasPrefix("client.authentication.k8s.io/") ? $0 : nil } ?? apiVersion
        return (info["spec"]?["interactive"]?.boolValue ?? false, version)
    }

    /// The ExecCredential of `token`; `expirationTimestamp` (RFC 3339) when its lifetime is known.
    static func execCredential(_ token: AccessToken?, apiVersion: String) -> JSONValue {
        var status: [String: JSONValue] = ["token": .string(token?.token ?? "")]
        if let expiry = token?.expiresAt {
            status["expirationTimestamp"] = .string(ISO8601DateFormatter().string(from: expiry))
        }
        return .object(["apiVersion": .string(apiVersion), "kind": .string("ExecCredential"), "status": .object(status)])
    }
}
