import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// How the client authenticates at the token endpoint (`--token-endpoint-auth-method`,
/// `token_endpoint_auth_method`, else discovery's choice) and which ID-token algorithm it accepts
/// (`--id-token-signed-response-alg`, `id_token_signed_response_alg`), as a user gives them:
/// `webauth login` headless with a login script against the development provider in this process.
@Suite("webauth login: the token endpoint's method and the ID token's algorithm (the built binary)", .startsWebKit(minutes: 3))
struct ClientAuthenticationCommandTests {
    var webauth = WebAuthBinary()
    /// 32 bytes: an HS256 key.
    static let secret = "0123456789abcdef-s3cret-0123456789"

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
        webauth.environment["WEBAUTH_CLIENT_SECRET"] = Self.secret  // a reference the saved sign-in keeps, for the refresh
    }

    func script() throws -> String { try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript) }

    /// A provider with the confidential client `app` and the public `webauth-demo`, `app` registered for `method` if given, whose
    /// discovery lists `advertised` and whose tokens last 30 s (within `token`'s 60 s tolerance:
    /// every `token` run refreshes).
    func provider(method: String? = nil, advertised: [String]? = nil, faults: Set<ProviderFault> = []) async throws -> OpenIDProvider {
        var settings = DevProviderConfiguration()
        settings.clients = [OpenIDProvider.Client(clientID: "app", clientSecret: Self.secret, redirectURIs: ["com.example.webauth:/callback"],
                                                  tokenEndpointAuthMethod: method), .demo]
        if let advertised { settings.tokenEndpointAuthMethods = advertised }
        settings.faults = faults
        settings.accessTokenLifetime = 30
        return try await OpenIDProvider.start(configuration: settings)
    }

    @Test("a client registered for client_secret_post: discovery's choice signs in and token refreshes with it; --token-endpoint-auth-method overrides it")
    func clientSecretPost() async throws {
        let provider = try await provider(method: "client_secret_post", advertised: ["none", "client_secret_post"])
        let login = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "app", "--headless", "--script", try script()])
        #expect(login.status == 0, "stderr: \(login.stderr)")
        let token = try await webauth(["token"])
        #expect(token.status == 0 && provider.refreshCount == 1, "the refresh authenticated as the sign-in did; stderr: \(token.stderr)")

        let basic = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "app", "--token-endpoint-auth-method", "client_secret_basic",
                                       "--headless", "--script", try script()])
        #expect(basic.status != 0 && basic.stderr.contains("invalid_client"), "stderr: \(basic.stderr)")
        let misspelt = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "app", "--token-endpoint-auth-method", "client_secret_pots"])
        #expect(misspelt.status == 64 && misspelt.stderr.contains("did you mean 'client_secret_post'"), "stderr: \(misspelt.stderr)")
    }

    @Test("HS256 ID tokens and client_secret_jwt from config.json: the sign-in and its refresh validate with the secret")
    func hmacIDTokensAndClientSecretJWT() async throws {
        let provider = try await provider(method: "client_secret_jwt", faults: [.hmacIDTokens])
        let config = try webauth.file("client.json", """
            {"issuer": "\(provider.issuer)", "client_id": "app", "token_endpoint_auth_method": "client_secret_jwt",
             "id_token_signed_response_alg": "HS256"}
            """)
        let login = try await webauth(["login", "--config", config, "--headless", "--script", try script()])
        #expect(login.status == 0, "stderr: \(login.stderr)")
        let token = try await webauth(["token"])
        #expect(token.status == 0 && provider.refreshCount == 1, "stderr: \(token.stderr)")
    }

    @Test("HS256 ID tokens are refused for a client registered for ES256, and for a public client")
    func hmacIDTokensRefused() async throws {
        let provider = try await provider(faults: [.hmacIDTokens])
        let registered = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "app", "--id-token-signed-response-alg", "ES256",
                                            "--headless", "--script", try script()])
        #expect(registered.status != 0 && registered.stderr.contains("signed with HS256, but the client registered ES256"),
                "stderr: \(registered.stderr)")
        let demo = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--token-endpoint-auth-method", "none",
                                      "--headless", "--script", try script()])
        #expect(demo.status != 0 && demo.stderr.contains("algorithm 'HS256' is not accepted"), "stderr: \(demo.stderr)")
    }

    @Test("an unsigned ID token is refused by default, and over plain http even when the client registered none")
    func unsignedIDTokens() async throws {
        let provider = try await provider(faults: [.unsignedIDTokens])
        let unregistered = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "app", "--headless", "--script", try script()])
        #expect(unregistered.status != 0 && unregistered.stderr.contains("algorithm 'none' is not accepted"), "stderr: \(unregistered.stderr)")
        let registered = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "app", "--id-token-signed-response-alg", "none",
                                            "--headless", "--script", try script()])
        #expect(registered.status != 0 && registered.stderr.contains("over plain http"), "stderr: \(registered.stderr)")
    }
}
