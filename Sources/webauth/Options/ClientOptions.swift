import ArgumentParser
import Foundation
import OpenIDConnect
import WebAuthSession

/// Which provider and client to use: flags, else the `--config` file, else the environment.
struct ClientOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A JSON or property-list file of the client's settings (flags override it), with the keys "
                               + ConfigurationFile.keys.joined(separator: ", ") + " (camelCase too, at the top or under credentials).",
                               valueName: "file"))
    var config: String?

    @Option(help: "The provider's issuer URL; its discovery document gives the endpoints.")
    var issuer: String?

    @Option(help: ArgumentHelp("Without --issuer: the person signing in (alice@example.com, an acct: URI, or a URL), whose host names the issuer through WebFinger (OpenID Connect Discovery 1.0 §2), over https (plain http only for this machine).",
                               valueName: "user"))
    var user: String?

    @Option(help: ArgumentHelp("The authorization endpoint, to skip discovery (needs --token-endpoint and --issuer).", valueName: "url"))
    var authorizationEndpoint: String?

    @Option(help: ArgumentHelp("The token endpoint, to skip discovery.", valueName: "url"))
    var tokenEndpoint: String?

    @Option(help: ArgumentHelp("The JWKS URI, when skipping discovery.", valueName: "url"))
    var jwksURI: String?

    @Option(help: ArgumentHelp("The device authorization endpoint (RFC 8628), for a provider whose discovery does not list it.",
                               valueName: "url"))
    var deviceAuthorizationEndpoint: String?

    @Option(help: "The client ID registered at the provider.")
    var clientID: String?

    @OptionGroup var secret: ClientSecretOptions

    @Option(help: "The redirect URI registered for the client (a custom scheme, or http://127.0.0.1:PORT/path).")
    var redirectURI: String?

    @Flag(help: "Accept plain http from a provider that is not on this machine (only for one you trust on your network); allow_insecure_http in --config.")
    var allowInsecureHTTP = false

    @OptionGroup var network: NetworkOptions

    @Flag(help: "Push the authorization request to the provider first (PAR, RFC 9126), even when its discovery does not require it; par in --config.")
    var par = false

    @Flag(help: "Ask for DPoP-bound tokens (RFC 9449): a key made for this sign-in and saved with it proves possession on every token, refresh and userinfo request; dpop in --config.")
    var dpop = false

    @Option(help: ArgumentHelp("The one algorithm the client registered for its ID tokens (RS256, ES256, PS256..., HS256/384/512 keyed with the client secret, or none: unsigned, accepted only from the token endpoint over https in the code flow); id_token_signed_response_alg in --config. Default: any asymmetric algorithm, and HMAC when the client has a secret. Saved with the sign-in.",
                               valueName: "alg"))
    var idTokenSignedResponseAlg: String?

    /// Whether these options name no provider and no client: a profile's own registration
    /// (`webauth register`) may then give them.
    var namesNoClient: Bool {
        config == nil && issuer == nil && user == nil && clientID == nil && authorizationEndpoint == nil
    }

    /// The settings these options and the configuration file give, else `saved`'s: the profile's
    /// saved sign-in (its issuer, client ID, redirect URI and scopes; its client's secret as
    /// `token` finds it, or the registration's when the client registered itself).
    func resolve(environment: [String: String] = CommandEnvironment.original, saved: AuthState? = nil) throws -> ClientSettings {
        let file = try config.map { try ConfigurationFile(path: $0) }
        let fromFile = { (key: String) throws -> String? in try file?.string(key) }
        guard let clientID = try clientID ?? fromFile("client_id") ?? saved?.clientID else {
            throw CommandFailure(.usage, "no client ID: give --client-id, or client_id (clientId) in --config, or register one (webauth register)")
        }
        let redirect = try redirectURI ?? fromFile("redirect_uri") ?? saved?.client?.redirectURI ?? "com.example.webauth:/callback"
        let redirectURI: RedirectURI
        do { redirectURI = try RedirectURI(redirect) } catch {
            throw CommandFailure(.usage, "the redirect URI \(redirect) cannot be used: \(error)")
        }
        let issuer = try self.issuer ?? fromFile("issuer") ?? saved?.configuration.issuer
        let provider: OpenIDConnectClient.Provider
        if let authorization = try authorizationEndpoint ?? fromFile("authorization_endpoint") {
            guard let issuer, let token = try tokenEndpoint ?? fromFile("token_endpoint") else {
                throw CommandFailure(.usage, "--authorization-endpoint needs --token-endpoint and --issuer (the ID token's iss)")
            }
            provider = .configuration(ProviderConfiguration(
                issuer: issuer, authorizationEndpoint: try Self.url(authorization, "authorization endpoint"),
                tokenEndpoint: try Self.url(token, "token endpoint"),
                jwksURI: try (jwksURI ?? fromFile("jwks_uri")).map { try Self.url($0, "JWKS URI") }))
        } else if let issuer {
            _ = try Self.url(issuer, "issuer")
            provider = .issuer(issuer)
        } else if let user {
            do { _ = try WebFingerQuery(user: user) } catch { throw CommandFailure(.usage, "--user: \(error)") }
            provider = .user(user)
        } else {
            throw CommandFailure(.usage, "no provider: give --issuer (or issuer in --config), or --user for WebFinger to find it")
        }
        return ClientSettings(provider: provider, clientID: clientID, redirectURI: redirectURI,
                              authentication: try authentication(saved: saved, file: file, environment: environment),
                              allowInsecureHTTP: try allowInsecureHTTP || file?.bool("allow_insecure_http") == true,
                              pushAuthorizationRequests: try par || file?.bool("par") == true,
                              dpop: try dpop || file?.bool("dpop") == true,
                              idTokenSigning: try Self.signing(idTokenSignedResponseAlg ?? fromFile("id_token_signed_response_alg")),
                              scopes: try file?.scopes("scopes") ?? file?.scopes("scope") ?? saved?.client?.scopes,
                              parameters: try file?.parameters("parameters") ?? [:],
                              deviceAuthorizationEndpoint: try (deviceAuthorizationEndpoint ?? fromFile("device_authorization_endpoint"))
                                  .map { try Self.url($0, "device authorization endpoint") },
                              store: try Self.store(fromFile("store"), in: config),
                              network: try network.settings(from: file ?? ConfigurationFile.chosen(nil, environment: environment), environment: environment))
    }

    /// How the client authenticates: as the registration says when `saved`'s client registered
    /// itself, as the options and `saved`'s client say for another saved sign-in, else as the options and `file` say.
    private func authentication(saved: AuthState?, file: ConfigurationFile?, environment: [String: String]) throws -> ClientAuthentication {
        guard let saved else { return try secret.resolve(environment: environment, fallback: file?.string("client_secret"), file: file) }
        if secret.namesNone, let registration = saved.registration, registration.clientID == saved.clientID {
            return try Register.authentication(of: registration)
        }
        return try secret.resolve(for: saved.client, environment: environment)
    }

    /// The `id_token_signed_response_alg` `name` gives, exactly as registered.
    private static func signing(_ name: String?) throws(CommandFailure) -> IDTokenSigning? {
        guard let name else { return nil }
        guard let signing = IDTokenSigning(rawValue: name) else {
            throw CommandFailure(.usage, Spelling.unknown("ID token algorithm (id_token_signed_response_alg)", name, among: IDTokenSigning.names))
        }
        return signing
    }

    /// `store` from the configuration file: keyring, file or none.
    private static func store(_ text: String?, in path: String?) throws(CommandFailure) -> StoreChoice? {
        guard let text else { return nil }
        guard let choice = StoreChoice(rawValue: text) else {
            throw CommandFailure(.usage, "store in \(path ?? "--config") must be keyring, file or none, not '\(text)'")
        }
        return choice
    }

    /// `text` as an http(s) URL with a host; the message says what is missing or misspelt.
    private static func url(_ text: String, _ what: String) throws(CommandFailure) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme, text.contains("://") else {
            throw CommandFailure(.usage, "the \(what) \(text) has no scheme: write it as https://\(text)")
        }
        guard scheme == "https" || scheme == "http" else {
            throw CommandFailure(.usage, "the \(what) \(text) is not an http(s) URL: " + Spelling.unknown("scheme", scheme, among: ["https", "http"]))
        }
        guard url.host?.isEmpty == false else { throw CommandFailure(.usage, "the \(what) \(text) has no host") }
        return url
    }
}

/// A resolved client: what an ``OpenIDConnectClient`` needs, plus the configured defaults.
struct ClientSettings {
    let provider: OpenIDConnectClient.Provider
    let clientID: String
    let redirectURI: RedirectURI
    let authentication: ClientAuthentication
    /// Whether plain http is accepted from a provider that is not loopback.
    let allowInsecureHTTP: Bool
    /// Whether sign-ins push their authorization request (PAR) even when the provider does not require it.
    let pushAuthorizationRequests: Bool
    /// Whether sign-ins ask for DPoP-bound tokens.
    let dpop: Bool
    /// The client's `id_token_signed_response_alg`, if given.
    let idTokenSigning: IDTokenSigning?
    /// Scopes from the configuration file, if it names any.
    let scopes: [String]?
    /// Authorization parameters from the configuration file.
    let parameters: [String: String]
    /// The device authorization endpoint given by hand (discovery may not list it).
    let deviceAuthorizationEndpoint: URL?
    /// Where the configuration file says to keep the sign-in.
    let store: StoreChoice?
    /// The proxy, CA file and languages of the page and every request.
    let network: NetworkSettings

    /// What a later run needs of this client to act for a sign-in with `configuration`'s provider:
    /// the authentication in the method the provider was asked in (as its discovery chose it,
    /// so that refreshes use it too), where the `secret` is, and the ID-token algorithm.
    func savedClient(scopes: [String], secret: SavedClient.SecretReference?, for configuration: ProviderConfiguration) -> SavedClient {
        SavedClient(redirectURI: redirectURI.string, scopes: scopes, authenticationMethod: .init(authentication.resolved(for: configuration)),
                    clientSecret: secret, privateKey: authentication.privateKey, idTokenSigning: idTokenSigning)
    }

    /// A client of these settings whose requests go through `http`.
    func client(http: any HTTPClient) -> OpenIDConnectClient {
        OpenIDConnectClient(provider: provider, clientID: clientID, redirectURI: redirectURI, authentication: authentication,
                            allowInsecureHTTP: allowInsecureHTTP, pushAuthorizationRequests: pushAuthorizationRequests, dpop: dpop,
                            idTokenSigning: idTokenSigning, http: http)
    }
}
