import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession

/// `webauth token`: a fresh access token for scripts.
struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a fresh access token of the saved sign-in (refreshed if it expires within a minute).",
        discussion: #"For scripts: curl -H "Authorization: Bearer $(webauth token)" https://api.example.com/"#)

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var secret: ClientSecretOptions

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("For a DPoP-bound sign-in (login --dpop): print the two header lines of your own request METHOD URL instead, 'DPoP: proof' then 'Authorization: DPoP token' (curl -H @file).",
                               valueName: "method url"))
    var dpop: [String] = []

    func run() async throws {
        try await reportingFailures(ifInterrupted: "no token was printed") {
            let signIn = try await SavedSignIn(profile: profile, secret: secret)
            if !dpop.isEmpty { return try await DPoPHeaders(dpop).print(for: signIn) }
            do throws(AuthStateError) { print(try await signIn.manager().freshAccessToken()) } catch { throw CommandFailure(error) }
        }
    }
}

/// `webauth userinfo`: the provider's UserInfo claims for the saved sign-in.
struct Userinfo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the provider's UserInfo claims for the saved sign-in, as JSON.")

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var secret: ClientSecretOptions

    func run() async throws {
        try await reportingFailures(ifInterrupted: "nothing was printed") {
            let manager = try await SavedSignIn(profile: profile, secret: secret).manager()
            do throws(AuthStateError) { print(JSONValue.object(try await manager.userinfo()).description) } catch { throw CommandFailure(error) }
        }
    }
}

/// `webauth status`: is there a saved sign-in, and until when is it good?
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say whether a sign-in is saved, for whom, until when, and in which store (JSON). Exits 6 when not signed in.")

    @OptionGroup var profile: ProfileOptions

    func run() async throws {
        try await reportingFailures(ifInterrupted: "nothing was printed") {
            let store = try await profile.store()
            guard let state = try await ProfileStore.load(profile.name, from: store) else {
                print(JSONValue.object(["signed_in": .bool(false), "store": .string(ProfileStore.describe(store))]).description)
                throw ExitCode(ExitStatus.signInRequired.rawValue)
            }
            print(SignInSummary.json(state, store: ProfileStore.describe(store)).description)
            if state.reauthenticationReason != nil { throw ExitCode(ExitStatus.signInRequired.rawValue) }
        }
    }
}

/// A saved sign-in, opened for use: refreshes are saved back to its store. The client's secret
/// comes from the options, else from where the sign-in says it is kept.
struct SavedSignIn {
    let state: AuthState
    let store: any AuthStateStore
    let authentication: ClientAuthentication

    init(profile: ProfileOptions, secret: ClientSecretOptions) async throws(CommandFailure) {
        (state, store) = try await profile.savedState()
        authentication = try secret.resolve(for: state.client)
        if let reason = state.reauthenticationReason { throw CommandFailure(.signInRequired, "not signed in: \(reason)") }
    }

    /// A manager that saves refreshes to the store, taking turns with other processes.
    func manager() -> AuthStateManager {
        AuthStateManager(state: state, store: store, authentication: authentication)
    }
}
