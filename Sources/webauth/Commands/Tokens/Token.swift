import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession

/// `webauth token`: a fresh access token (or ID token) for scripts.
struct Token: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a fresh access token of the saved sign-in (refreshed if it expires within a minute, or --min-valid).",
        discussion: """
            For scripts: curl -H "Authorization: Bearer $(webauth token)" https://api.example.com/ \
            With --scope or --resource (--audience), a token for those alone, through the refresh \
            grant: it is saved apart and never replaces the sign-in's own token or scopes. A refresh \
            token the provider rotates is saved before the token is printed. --format raw (the \
            token), json (access_token, token_type, expires_at, scope: docs/schemas/token.schema.json) \
            or header (Authorization: Bearer ...). Its requests, like those of exec, env and userinfo, \
            go through the proxy, no_proxy and ca_file of $XDG_CONFIG_HOME/webauth/config.json \
            (~/.config/webauth/config.json) when it names them, else the environment's proxy.
            """)

    /// How the token is printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// The token alone.
        case raw
        /// `access_token`, `token_type`, `expires_at`, `scope` (docs/schemas/token.schema.json).
        case json
        /// An HTTP header line: `Authorization: Bearer …`.
        case header
    }

    @OptionGroup var access: AccessTokenOptions

    @Flag(help: "Print the ID token instead (refreshed when it expires within --min-valid seconds).")
    var idToken = false

    @Option(help: "How to print the token: raw, json or header.")
    var format: Format = .raw

    func validate() throws {
        guard idToken else { return }
        guard access.target.isSignIn else { throw ValidationError("--id-token cannot take --scope or --resource: the ID token is for this client") }
        guard format != .json else { throw ValidationError("--format json describes an access token: with --id-token, use raw or header") }
    }

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("For a DPoP-bound sign-in (login --dpop): print the two header lines of your own request METHOD URL instead, 'DPoP: proof' then 'Authorization: DPoP token' (curl -H @file).",
                               valueName: "method url"))
    var dpop: [String] = []

    func run() async throws {
        try await reportingFailures(ifInterrupted: "no token was printed", offering: .timeout) {
            if !dpop.isEmpty { return try await DPoPHeaders(dpop).print(for: access.savedSignIn()) }
            if idToken {
                let manager = try await access.manager()
                let token: IDToken
                do throws(AuthStateError) { token = try await manager.freshIDToken(minimumValidity: access.minimumValidity) } catch { throw CommandFailure(error) }
                print(format == .header ? "Authorization: Bearer \(token.rawValue)" : token.rawValue)
            } else {
                print(Self.formatted(try await access.freshAccessToken(for: .process("standard output")), as: format))
            }
        }
    }

    /// `token` as `format` asks.
    static func formatted(_ token: AccessToken, as format: Format) -> String {
        switch format {
        case .raw: token.token
        case .header: "Authorization: Bearer \(token.token)"
        case .json:
            JSONValue.object([
                "access_token": .string(token.token), "token_type": .string(token.tokenType),
                "expires_at": token.expiresAt.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null,
                "scope": token.scopes.map { .string($0.joined(separator: " ")) } ?? .null,
            ]).description
        }
    }
}

/// `webauth userinfo`: the provider's UserInfo claims for the saved sign-in.
struct Userinfo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the provider's UserInfo claims for the saved sign-in, as JSON.")

    @OptionGroup var profile: ProfileOptions
    @OptionGroup var secret: ClientSecretOptions
    @OptionGroup var timing: TimeoutOption

    func run() async throws {
        try await reportingFailures(ifInterrupted: "nothing was printed", offering: .timeout) {
            let deadline = timing.deadline()
            let network = try NetworkSettings.unflagged(config: nil, environment: CommandEnvironment.original)
            let manager = try await SavedSignIn(profile: profile, secret: secret, network: network, deadline: deadline).manager()
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
/// comes from the options, else from where the sign-in says it is kept; its requests take the
/// route `network` gives, and end at the command's deadline.
struct SavedSignIn {
    let state: AuthState
    let store: any AuthStateStore
    let authentication: ClientAuthentication
    /// The route of its requests (refresh, userinfo, revocation).
    let network: NetworkSettings
    /// When the command's time is up: a request still unanswered then ends as a timeout (exit 5).
    let deadline: CommandDeadline

    /// - Parameter deadline: the command's `--timeout`; a command without one gets
    ///   ``TimeoutOption/defaultSeconds`` from now.
    init(profile: ProfileOptions, secret: ClientSecretOptions, network: NetworkSettings,
         deadline: CommandDeadline = CommandDeadline(seconds: TimeoutOption.defaultSeconds)) async throws(CommandFailure) {
        self.deadline = deadline
        (state, store) = try await profile.savedState()
        authentication = try secret.resolve(for: state.client)
        self.network = network
        if let reason = state.reauthenticationReason { throw CommandFailure(.signInRequired, "not signed in: \(reason)") }
    }

    /// The client for its requests: on ``network``'s route, ending at ``deadline``.
    var http: any HTTPClient { deadline.http(network) }

    /// A manager that saves refreshes to the store, taking turns with other processes.
    func manager() -> AuthStateManager {
        AuthStateManager(state: state, store: store, authentication: authentication, http: http)
    }
}
