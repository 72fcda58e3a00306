import ArgumentParser
import Foundation
import OpenIDConnect
import SignInFiles
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// Which provider and client to use: flags, else the `--config` file, else the environment.
package struct ClientOptions: ParsableArguments {
    /// The command-line parser makes it.
    package init() {}

    @Option(help: ArgumentHelp("A JSON or property-list file of the client's settings (flags override it), with the keys "
                               + ConfigurationFile.keys.joined(separator: ", ") + " (camelCase too, at the top or under credentials).",
                               valueName: "file"))
    package var config: String?

    @Option(help: "The provider's issuer URL; its discovery document gives the endpoints.")
    package var issuer: String?

    @Option(help: ArgumentHelp("Without --issuer: the person signing in (alice@example.com, an acct: URI, or a URL), whose host names the issuer through WebFinger (OpenID Connect Discovery 1.0 §2), over https (plain http only for this machine).",
                               valueName: "user"))
    package var user: String?

    @Option(help: ArgumentHelp("The authorization endpoint, to skip discovery (needs --token-endpoint and --issuer).", valueName: "url"))
    package var authorizationEndpoint: String?

    @Option(help: ArgumentHelp("The token endpoint, to skip discovery.", valueName: "url"))
    package var tokenEndpoint: String?

    @Option(help: ArgumentHelp("The JWKS URI, when skipping discovery.", valueName: "url"))
    package var jwksURI: String?

    @Option(help: ArgumentHelp("The device authorization endpoint (RFC 8628), for a provider whose discovery does not list it.",
                               valueName: "url"))
    package var deviceAuthorizationEndpoint: String?

    @Option(help: "The client ID registered at the provider.")
    package var clientID: String?

    @OptionGroup package var secret: ClientSecretOptions

    @Option(help: "The redirect URI registered for the client (a custom scheme, or http://127.0.0.1:PORT/path).")
    package var redirectURI: String?

    @Flag(help: "Accept plain http from a provider that is not on this machine (only for one you trust on your network); allow_insecure_http in --config.")
    package var allowInsecureHTTP = false

    @OptionGroup package var network: NetworkOptions

    @Flag(help: "Push the authorization request to the provider first (PAR, RFC 9126), even when its discovery does not require it; par in --config.")
    package var par = false

    @Flag(help: "Ask for DPoP-bound tokens (RFC 9449): a key made for this sign-in and saved with it proves possession on every token, refresh and userinfo request; dpop in --config.")
    package var dpop = false

    @Option(help: ArgumentHelp("The one algorithm the client registered for its ID tokens (RS256, ES256, PS256..., HS256/384/512 keyed with the client secret, or none: unsigned, accepted only from the token endpoint over https in the code flow); id_token_signed_response_alg in --config. Default: any asymmetric algorithm, and HMAC when the client has a secret. Saved with the sign-in.",
                               valueName: "alg"))
    package var idTokenSignedResponseAlg: String?

    /// Whether these options name no provider and no client: a profile's own registration
    /// (`webauth register`) may then give them.
    package var namesNoClient: Bool {
        config == nil && issuer == nil && user == nil && clientID == nil && authorizationEndpoint == nil
    }
}
