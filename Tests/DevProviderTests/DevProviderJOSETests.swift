import DevProvider
import DevProviderTestSupport
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import Testing

/// The development provider misbehaving as an OpenID certification's relying-party tests do,
/// and this package's protocol layer against it over real HTTP: key sets with keys to skip,
/// tokens without `kid`, HS256 and unsigned ID tokens, clients registered for one token-endpoint
/// method.
@Suite("Development provider: key sets, ID-token algorithms, client authentication")
struct DevProviderJOSETests {
    let raw = ProviderOverHTTP()
    /// 32 bytes: an HS256 key.
    static let secret = "0123456789abcdef-s3cret-0123456789"

    /// A provider with a confidential client `app` (registered for `method`, if given) and `faults`.
    func provider(method: String? = nil, advertised: [String]? = nil, faults: Set<ProviderFault> = []) async throws -> OpenIDProvider {
        try await raw.provider { settings in
            settings.clients.append(OpenIDProvider.Client(clientID: "app", clientSecret: Self.secret, redirectURIs: [ProviderOverHTTP.redirect],
                                                          tokenEndpointAuthMethod: method))
            if let advertised { settings.tokenEndpointAuthMethods = advertised }
            settings.faults = faults
        }
    }

    /// Logs alice in for `client` and exchanges the code with `authentication`.
    func signIn(_ provider: OpenIDProvider, client: String = "app",
                authentication: ClientAuthentication) async throws -> (TokenResponse, AuthorizationRequest, ProviderConfiguration) {
        let (request, configuration) = try await raw.request(provider, client: client)
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        let code = try #require(try raw.response(try await raw.logIn(url), request, configuration).code)
        let tokens = try await TokenEndpoint(configuration: configuration, clientID: client, authentication: authentication,
                                             http: URLSessionHTTPClient())
            .exchange(code: code, for: request)
        return (tokens, request, configuration)
    }

    @Test("a JWKS with an encryption key under the signing key's kid, keys jwt-kit cannot read, and tokens without kid: the ID token validates",
          arguments: [[ProviderFault.extraJWKSKeys], [.extraJWKSKeys, .idTokenWithoutKeyID], [.idTokenWithoutKeyID]])
    func keySetWithKeysToSkip(faults: Set<ProviderFault>) async throws {
        let provider = try await provider(faults: faults)
        let (tokens, request, configuration) = try await signIn(provider, client: "webauth-demo", authentication: .none)
        let idToken = try await IDTokenValidator(configuration: configuration, clientID: "webauth-demo", http: URLSessionHTTPClient())
            .validate(try #require(tokens.idToken), nonce: request.nonce, source: .codeFlowTokenEndpoint)
        #expect(idToken.subject == OpenIDProvider.User.alice.subject)
    }

    @Test("HS256 ID tokens keyed with the client secret: accepted with the secret, refused without it or when the client registered ES256")
    func hmacIDTokens() async throws {
        let provider = try await provider(faults: [.hmacIDTokens])
        let (tokens, request, configuration) = try await signIn(provider, authentication: .clientSecretBasic(secret: Self.secret))
        let raw = try #require(tokens.idToken)
        let validator = try IDTokenValidator(configuration: configuration, clientID: "app", clientSecret: Self.secret, http: URLSessionHTTPClient())
        #expect(try await validator.validate(raw, nonce: request.nonce).subject == OpenIDProvider.User.alice.subject)
        await #expect(throws: IDTokenError.unsupportedAlgorithm("HS256")) {
            try await IDTokenValidator(configuration: configuration, clientID: "app",
                                       http: URLSessionHTTPClient()).validate(raw, nonce: request.nonce)
        }
        await #expect(throws: IDTokenError.algorithmNotRegistered(alg: "HS256", registered: "ES256")) {
            try await IDTokenValidator(configuration: configuration, clientID: "app", clientSecret: Self.secret, signing: .algorithm(.es256),
                                       http: URLSessionHTTPClient())
                .validate(raw, nonce: request.nonce)
        }
    }

    @Test("unsigned ID tokens: refused by default, and over plain http even for a client registered for none")
    func unsignedIDTokens() async throws {
        let provider = try await provider(faults: [.unsignedIDTokens])
        let (tokens, request, configuration) = try await signIn(provider, client: "webauth-demo", authentication: .none)
        let raw = try #require(tokens.idToken)
        await #expect(throws: IDTokenError.unsupportedAlgorithm("none")) {
            try await IDTokenValidator(configuration: configuration, clientID: "webauth-demo", http: URLSessionHTTPClient())
                .validate(raw, nonce: request.nonce, source: .codeFlowTokenEndpoint)
        }
        await #expect(throws: IDTokenError.unsignedRefused(reason: "over plain http")) {
            try await IDTokenValidator(configuration: configuration, clientID: "webauth-demo", signing: .unsigned, http: URLSessionHTTPClient())
                .validate(raw, nonce: request.nonce, source: .codeFlowTokenEndpoint)
        }
    }

    @Test("a client registered for one method authenticates with it alone; the secret left to the provider goes as its discovery asks",
          arguments: [
            ("client_secret_post", ["none", "client_secret_post"]),
            ("client_secret_jwt", ["none", "client_secret_jwt"]),
            ("client_secret_basic", nil),
          ] as [(String, [String]?)])
    func registeredMethod(method: String, advertised: [String]?) async throws {
        let provider = try await provider(method: method, advertised: advertised)
        let chosen = try #require(SavedClient.AuthenticationMethod(rawValue: method)).authentication(secret: Self.secret)
        let (tokens, _, configuration) = try await signIn(provider, authentication: .clientSecret(secret: Self.secret))
        #expect(!tokens.accessToken.isEmpty)
        #expect(ClientAuthentication.clientSecret(secret: Self.secret).resolved(for: configuration) == chosen)
        _ = try await signIn(provider, authentication: chosen)
        for other in SavedClient.AuthenticationMethod.allCases where other.rawValue != method && other != .none && other != .privateKeyJWT {
            do {
                _ = try await signIn(provider, authentication: other.authentication(secret: Self.secret))
                Issue.record("a client registered for \(method) authenticated with \(other.rawValue)")
            } catch let error as OpenIDConnectError {
                guard case .token(let oauth) = error else { throw error }
                #expect(oauth.error == "invalid_client")
            }
        }
    }

    @Test("client_secret_jwt sends an HS256 assertion, never the secret; a secret too short for HS256 is a typed error before anything is sent")
    func clientSecretJWT() async throws {
        let provider = try await provider(method: "client_secret_jwt")
        let (tokens, _, configuration) = try await signIn(provider, authentication: .clientSecretJWT(secret: Self.secret))
        #expect(!tokens.accessToken.isEmpty)
        let short = "0123456789abcdef0123456789abcde"  // 31 bytes
        let before = provider.requestCount("/token")
        await #expect(throws: OpenIDConnectError.clientSecretTooShort(alg: "HS256", bytes: 31, needed: 32)) {
            try await TokenEndpoint(configuration: configuration, clientID: "app", authentication: .clientSecretJWT(secret: short),
                                    http: URLSessionHTTPClient())
                .refresh(refreshToken: "anything")
        }
        #expect(provider.requestCount("/token") == before)
    }
}
