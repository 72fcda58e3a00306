import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine
import WebAuthSupport

/// `webauth register`: the client registers itself at the provider (RFC 7591, OpenID Connect
/// Dynamic Client Registration 1.0) and the registration is saved with the profile, so that
/// `webauth login --profile NAME` needs nothing more.
struct Register: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register a native client at the provider (dynamic client registration, RFC 7591) and save it with the profile.",
        discussion: """
            Discovers the provider (--issuer, or --user through WebFinger), sends its \
            registration_endpoint the client's metadata (application_type native, the redirect URIs, \
            --name, --auth-method: none by default, a public client as RFC 8252 wants of a native app; \
            client_secret_basic or client_secret_post for a secret), and saves what comes back \
            (client_id, client_secret and its expiry, registration_access_token, registration_client_uri) \
            with the profile, in its store as secret as its tokens. Then webauth login --profile NAME \
            signs in with that client, and token, userinfo and the rest refresh with its secret. A \
            provider that restricts registration needs an initial access token: \
            --initial-access-token-file, or $WEBAUTH_INITIAL_ACCESS_TOKEN (never on the command line). \
            A secret that expired is not used: the command says so (exit 64), and webauth register \
            registers a new client. Prints client_id, token_endpoint_auth_method, \
            client_secret_expires_at and the store as JSON, never the secret or the tokens.
            """)

    @Option(help: "The provider's issuer URL; its discovery document names the registration endpoint.")
    var issuer: String?

    @Option(help: ArgumentHelp("Without --issuer: the person (alice@example.com, acct: or a URL) whose host names the issuer through WebFinger.",
                               valueName: "user"))
    var user: String?

    @Option(name: .customLong("redirect-uri"),
            help: "A redirect URI to register (repeatable; the first is the one login uses). Default: com.example.webauth:/callback.")
    var redirectURIs: [String] = []

    @Option(help: "The client's name, shown on the provider's consent page.")
    var name: String?

    @Option(help: ArgumentHelp("How the client authenticates at the token endpoint: none (a public client, the default), client_secret_basic or client_secret_post.",
                               valueName: "method"))
    var authMethod: String = "none"

    @Option(name: .customLong("scope"), help: "A scope the client will ask for (repeatable, or space-separated). Default: openid profile offline_access.")
    var scopes: [String] = []

    @Option(help: ArgumentHelp("A file holding the initial access token of a provider that restricts registration (else $WEBAUTH_INITIAL_ACCESS_TOKEN).",
                               valueName: "file"))
    var initialAccessTokenFile: String?

    @Flag(help: "Accept plain http from a provider that is not on this machine (only for one you trust on your network).")
    var allowInsecureHTTP = false

    @OptionGroup(title: "Network") var route: RouteOptions
    @OptionGroup(title: "Saved sign-in") var profile: ProfileOptions
    @OptionGroup var timing: TimeoutOption

    /// The methods a registration may name.
    static let methods: [SavedClient.AuthenticationMethod] = [.none, .clientSecretBasic, .clientSecretPost]

    func run() async throws {
        try await reportingFailures(ifInterrupted: "nothing was registered", offering: .timeout) {
            let provider: OpenIDConnectClient.Provider
            if let issuer { provider = .issuer(issuer) } else if let user { provider = .user(user) } else {
                throw CommandFailure(.usage, "no provider: give --issuer, or --user for WebFinger to find it")
            }
            guard let method = SavedClient.AuthenticationMethod(rawValue: authMethod), Self.methods.contains(method) else {
                throw CommandFailure(.usage, Spelling.unknown("authentication method", authMethod, among: Self.methods.map(\.rawValue)))
            }
            let redirects = try (redirectURIs.isEmpty ? ["com.example.webauth:/callback"] : redirectURIs).map { text throws(CommandFailure) in
                do { return try RedirectURI(text) } catch { throw CommandFailure(.usage, "the redirect URI \(text) cannot be used: \(error)") }
            }
            let scopes = scopes.isEmpty ? ["openid", "profile", "offline_access"] : scopes.flatMap { $0.split(separator: " ").map(String.init) }
            let token = try initialAccessToken()
            let deadline = timing.deadline()
            let network = try route.settings(config: nil, saved: nil)
            let name = profile.name
            guard let store = try await ProfileStore.forSaving(name: name, choice: profile.store) else {
                throw CommandFailure(.usage, "--store none keeps nothing: a registration must be kept to be used (its secret cannot be had again)")
            }
            let registered: (configuration: ProviderConfiguration, client: RegisteredClient)
            do throws(OpenIDConnectError) {
                registered = try await OpenIDConnectClient.register(provider: provider, redirectURIs: redirects, clientName: self.name,
                                                                    authenticationMethod: method, scopes: scopes, initialAccessToken: token,
                                                                    allowInsecureHTTP: allowInsecureHTTP, http: deadline.http(network))
            } catch {
                throw CommandFailure(SignInError.openIDConnect(error))
            }
            var state = AuthState(configuration: registered.configuration, clientID: registered.client.clientID, authorizationResponse: nil,
                                  tokenResponse: nil, idToken: nil)
            state.registration = registered.client
            state.client = SavedClient(redirectURI: redirects[0].string, scopes: scopes, authenticationMethod: registered.client.tokenEndpointAuthMethod)
            state.client?.route = network.saved
            try await ProfileStore.whileHoldingLock(of: name, waitingAtMost: deadline.remaining) { [state] in
                do throws(AuthStateStoreError) { try await store.save(state) } catch { throw CommandFailure(error) }
            }
            print(JSONValue.object([
                "profile": .string(name), "issuer": .string(registered.configuration.issuer), "client_id": .string(registered.client.clientID),
                "token_endpoint_auth_method": .string(registered.client.tokenEndpointAuthMethod.rawValue),
                "client_secret_expires_at": registered.client.clientSecretExpiresAt.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null,
                "registration_client_uri": registered.client.registrationClientURI.map { .string($0.absoluteString) } ?? .null,
                "store": .string(ProfileStore.describe(store)),
            ]).description)
        }
    }

    /// The initial access token: `--initial-access-token-file`, else `$WEBAUTH_INITIAL_ACCESS_TOKEN`, else none.
    private func initialAccessToken() throws(CommandFailure) -> String? {
        if let initialAccessTokenFile { return try SecretFileNotice.read(initialAccessTokenFile) }
        return CommandEnvironment.original["WEBAUTH_INITIAL_ACCESS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
