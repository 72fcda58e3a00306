import ArgumentParser
import Foundation
import OpenIDConnect
import SignInFiles
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus
import WebAuthCommandLine
import WebAuthSession
import WebAuthSupport

/// The client a command's ``ClientOptions`` resolve to, for the engine's sign-ins.
extension ClientOptions {
    /// The settings these options and the configuration file give, else `saved`'s: the profile's
    /// saved sign-in (its issuer, client ID, redirect URI and scopes; its client's secret as
    /// `token` finds it, or the registration's when the client registered itself).
    package func resolve(environment: [String: String] = CommandEnvironment.original, saved: AuthState? = nil) throws -> ClientSettings {
        let file = try config.map { try ConfigurationFile(commandPath: $0) }
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
    private func authentication(saved: AuthState?, file: WebAuthCommandLine.ConfigurationFile?, environment: [String: String]) throws -> ClientAuthentication {
        guard let saved else { return try secret.resolve(environment: environment, fallback: file?.string("client_secret"), file: file) }
        if secret.namesNone, let registration = saved.registration, registration.clientID == saved.clientID {
            return try ClientSecretOptions.authentication(of: registration)
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
package struct ClientSettings {
    package let provider: OpenIDConnectClient.Provider
    package let clientID: String
    package let redirectURI: RedirectURI
    package let authentication: ClientAuthentication
    /// Whether plain http is accepted from a provider that is not loopback.
    package let allowInsecureHTTP: Bool
    /// Whether sign-ins push their authorization request (PAR) even when the provider does not require it.
    package let pushAuthorizationRequests: Bool
    /// Whether sign-ins ask for DPoP-bound tokens.
    package let dpop: Bool
    /// The client's `id_token_signed_response_alg`, if given.
    package let idTokenSigning: IDTokenSigning?
    /// Scopes from the configuration file, if it names any.
    package let scopes: [String]?
    /// Authorization parameters from the configuration file.
    package let parameters: [String: String]
    /// The device authorization endpoint given by hand (discovery may not list it).
    package let deviceAuthorizationEndpoint: URL?
    /// Where the configuration file says to keep the sign-in.
    package let store: StoreChoice?
    /// The proxy, CA file and languages of the page and every request.
    package let network: NetworkSettings

    /// What a later run needs of this client to act for a sign-in with `configuration`'s provider:
    /// the authentication in the method the provider was asked in (as its discovery chose it,
    /// so that refreshes use it too), where the `secret` is, and the ID-token algorithm.
    package func savedClient(scopes: [String], secret: SavedClient.SecretReference?, for configuration: ProviderConfiguration) -> SavedClient {
        SavedClient(redirectURI: redirectURI.string, scopes: scopes, authenticationMethod: .init(authentication.resolved(for: configuration)),
                    clientSecret: secret, privateKey: authentication.privateKey, idTokenSigning: idTokenSigning)
    }

    /// A client of these settings whose requests go through `http`.
    package func client(http: any HTTPClient) -> OpenIDConnectClient {
        OpenIDConnectClient(provider: provider, clientID: clientID, redirectURI: redirectURI, authentication: authentication,
                            allowInsecureHTTP: allowInsecureHTTP, pushAuthorizationRequests: pushAuthorizationRequests, dpop: dpop,
                            idTokenSigning: idTokenSigning, http: http)
    }
}
