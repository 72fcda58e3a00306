import ArgumentParser
import Foundation
import OpenIDConnect
import Synchronization
import WebAuthCommandLine
import WebAuthSession

/// `webauth kubernetes-credential` with the engine: ``KubernetesCredential`` (which the light
/// `webauth` runs), and the sign-in it needs when the profile has none and the person can be asked.
struct KubernetesCredentialCommand: AsyncParsableCommand {
    static let configuration = KubernetesCredential.configuration

    @OptionGroup var plugin: KubernetesCredential

    func run() async throws {
        try await plugin.run(signingIn: { try await Self.signIn($0, because: $1, within: $2) })
    }

    /// Signs in as `webauth login` does without a display, within what is left of `deadline`, and
    /// saves the sign-in in the profile.
    @Sendable static func signIn(_ plugin: KubernetesCredential, because reason: String, within deadline: CommandDeadline) async throws -> AuthState {
        let client = plugin.client, profile = plugin.profile
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
}
