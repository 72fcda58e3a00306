import Crypto
import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import TestSupport
import Testing

@Suite("Discovery and the token endpoint, over real HTTP")
struct EndpointTests {
    func discoveryDocument(_ provider: TestProviderServer, issuer: String? = nil) -> JSONValue {
        .object([
            "issuer": .string(issuer ?? provider.issuer),
            "authorization_endpoint": .string(provider.url("/authorize").absoluteString),
            "token_endpoint": .string(provider.url("/token").absoluteString),
            "jwks_uri": .string(provider.url("/jwks").absoluteString),
            "authorization_response_iss_parameter_supported": .bool(true),
            "code_challenge_methods_supported": .array([.string("S256")]),
        ])
    }

    @Test("discovery reads the document and insists on its issuer")
    func discovery() async throws {
        let provider = try await TestProviderServer.start()
        provider.json("/.well-known/openid-configuration", discoveryDocument(provider))
        let configuration = try await ProviderConfiguration.discover(issuer: provider.issuer, using: URLSessionHTTPClient())
        #expect(configuration.tokenEndpoint == provider.url("/token"))
        #expect(configuration.authorizationResponseIssParameterSupported == true)

        provider.json("/.well-known/openid-configuration", discoveryDocument(provider, issuer: "https://evil.example"))
        await #expect(throws: OpenIDConnectError.issuerMismatch(expected: provider.issuer, actual: "https://evil.example")) {
            try await ProviderConfiguration.discover(issuer: provider.issuer, using: URLSessionHTTPClient())
        }
        provider.on("/.well-known/openid-configuration") { _ in .html("<html><body>Welcome to nginx!</body></html>") }
        do {
            _ = try await ProviderConfiguration.discover(issuer: provider.issuer, using: URLSessionHTTPClient())
            Issue.record("accepted an HTML page")
        } catch {
            guard case .unexpectedResponse(_, 200, let type, let snippet) = error else { throw error }
            #expect(type?.hasPrefix("text/html") == true && snippet.contains("nginx"))
        }
    }

    @Test("a provider that is down is a network error, not an OAuth error")
    func providerDown() async throws {
        let provider = try await TestProviderServer.start()
        let issuer = provider.issuer
        await provider.server.stop()
        do {
            _ = try await ProviderConfiguration.discover(issuer: issuer, using: URLSessionHTTPClient())
            Issue.record("discovered a stopped provider")
        } catch {
            guard case .http(.network) = error else { throw error }
        }
    }

    /// A secret long enough to key HS256, for the `client_secret_jwt` case.
    static let clientSecretJWTSecret = "0123456789abcdef0123456789abcdef"
    /// A P-256 key file for the `private_key_jwt` case.
    static let keyFile = (try? ClientKeyPair(.ec))?.path ?? "/nonexistent"

    @Test("code exchange sends the PKCE verifier and client authentication", arguments: [
        ClientAuthentication.none, .clientSecretPost(secret: "s3cret"), .clientSecretBasic(secret: "s3cr:et"),
        .privateKeyJWT(.pemFile(keyFile)), .clientSecretJWT(secret: clientSecretJWTSecret), .clientSecret(secret: "s3cr:et"),
    ])
    func exchange(authentication: ClientAuthentication) async throws {
        let provider = try await TestProviderServer.start()
        provider.json("/token", .object(["access_token": .string("AT"), "token_type": .string("Bearer"),
                                         "expires_in": .number(3600), "refresh_token": .string("RT"), "id_token": .string("x.y.z")]))
        let endpoint = TokenEndpoint(configuration: provider.configuration, clientID: "app", authentication: authentication,
                                     http: URLSessionHTTPClient())
        let request = AuthorizationRequest(clientID: "app", redirectURI: try RedirectURI("com.example:/cb"))
        let tokens = try await endpoint.exchange(code: "the-code", for: request)
        #expect(tokens.accessToken == "AT" && tokens.refreshToken == "RT" && tokens.expiresIn == 3600)
        #expect(!tokens.description.contains("AT,") && !tokens.description.contains("RT"))

        let sent = try #require(provider.requests("/token").first)
        let form = Dictionary(try FormURLEncoding.decode(sent.body), uniquingKeysWith: { first, _ in first })
        #expect(form["grant_type"] == "authorization_code" && form["code"] == "the-code")
        #expect(form["redirect_uri"] == "com.example:/cb")
        #expect(form["code_verifier"] == request.pkce?.verifier)
        switch authentication {
        case .none:
            #expect(form["client_id"] == "app" && form["client_secret"] == nil && sent.header("Authorization") == nil)
        case .clientSecretPost:
            #expect(form["client_id"] == "app" && form["client_secret"] == "s3cret")
        case .clientSecretBasic, .clientSecret:  // a provider that lists no methods gets client_secret_basic
            #expect(form["client_secret"] == nil)
            #expect(sent.header("Authorization") == "Basic " + Data("app:s3cr%3Aet".utf8).base64EncodedString())
        case .clientSecretJWT:
            #expect(form["client_secret"] == nil && sent.header("Authorization") == nil && !sent.body.contains(Self.clientSecretJWTSecret))
            let parts = try #require(form["client_assertion"]?.split(separator: ".").map(String.init))
            #expect(try JSONValue(parsing: String(decoding: try #require(Base64URL.decode(parts[0])), as: UTF8.self))["alg"] == .string("HS256"))
            let input = Data((parts[0] + "." + parts[1]).utf8)
            let key = SymmetricKey(data: Data(Self.clientSecretJWTSecret.utf8))
            #expect(Base64URL.decode(parts[2]) == Data(HMAC<SHA256>.authenticationCode(for: input, using: key)))
            let claims = try JSONValue(parsing: String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self))
            #expect(claims["aud"] == .string(provider.url("/token").absoluteString) && claims["iss"] == .string("app")
                    && claims["sub"] == .string("app") && claims["jti"] != nil)
        case .privateKeyJWT:
            #expect(form["client_id"] == "app" && form["client_assertion_type"] == ClientAssertion.type)
            let payload = try #require(form["client_assertion"]?.split(separator: ".").dropFirst().first)
            let claims = try JSONValue(parsing: String(decoding: try #require(Base64URL.decode(payload)), as: UTF8.self))
            #expect(claims["aud"] == .string(provider.url("/token").absoluteString) && claims["iss"] == .string("app")
                    && claims["sub"] == .string("app") && claims["jti"] != nil)
        }
    }

    @Test("token errors are typed; HTML and garbage are clear errors, not decode crashes")
    func tokenErrors() async throws {
        let provider = try await TestProviderServer.start()
        let endpoint = TokenEndpoint(configuration: provider.configuration, clientID: "app", http: URLSessionHTTPClient())
        provider.json("/token", .object(["error": .string("invalid_grant"), "error_description": .string("code already used")]), status: 400)
        do {
            _ = try await endpoint.refresh(refreshToken: "old")
            Issue.record("expected invalid_grant")
        } catch {
            guard case .token(let oauth) = error else { throw error }
            #expect(oauth.isInvalidGrant && oauth.httpStatus == 400 && oauth.errorDescription == "code already used")
        }
        for (status, body) in [(502, "<html><h1>502 Bad Gateway</h1></html>"), (200, "not json at all"), (200, #"{"token_type":"Bearer"}"#)] {
            provider.on("/token") { _ in LocalHTTPResponse(status: status, body: body) }
            do {
                _ = try await endpoint.refresh(refreshToken: "r")
                Issue.record("accepted \(body)")
            } catch {
                guard case .unexpectedResponse(_, let got, _, _) = error else { throw error }
                #expect(got == status)
            }
        }
    }

    @Test("refresh and revocation")
    func refreshAndRevoke() async throws {
        let provider = try await TestProviderServer.start()
        provider.json("/token", .object(["access_token": .string("AT2"), "token_type": .string("Bearer"), "expires_in": .string("60")]))
        provider.on("/revoke") { _ in LocalHTTPResponse(status: 200) }
        let endpoint = TokenEndpoint(configuration: provider.configuration, clientID: "app", http: URLSessionHTTPClient())
        let tokens = try await endpoint.refresh(refreshToken: "RT", scopes: ["openid"])
        #expect(tokens.accessToken == "AT2" && tokens.expiresIn == 60)
        let form = Dictionary(try FormURLEncoding.decode(provider.requests("/token")[0].body), uniquingKeysWith: { a, _ in a })
        #expect(form["grant_type"] == "refresh_token" && form["refresh_token"] == "RT" && form["scope"] == "openid")

        try await endpoint.revoke("RT", hint: "refresh_token")
        let revoked = Dictionary(try FormURLEncoding.decode(provider.requests("/revoke")[0].body), uniquingKeysWith: { a, _ in a })
        #expect(revoked["token"] == "RT" && revoked["token_type_hint"] == "refresh_token")

        var withoutRevocation = provider.configuration
        withoutRevocation.revocationEndpoint = nil
        await #expect(throws: OpenIDConnectError.missingEndpoint("revocation_endpoint")) {
            try await TokenEndpoint(configuration: withoutRevocation, clientID: "app", http: URLSessionHTTPClient()).revoke("RT")
        }
    }

    @Test("an endpoint that redirects is answering, not moving: the redirect is never followed")
    func redirectsNotFollowed() async throws {
        let provider = try await TestProviderServer.start()
        provider.on("/token") { _ in .redirect(to: "com.example:/elsewhere?x=1") }
        provider.json("/elsewhere", .object(["access_token": .string("AT"), "token_type": .string("Bearer")]))
        do {
            _ = try await TokenEndpoint(configuration: provider.configuration, clientID: "app",
                                        http: URLSessionHTTPClient()).refresh(refreshToken: "r")
            Issue.record("followed a redirect")
        } catch {
            guard case .unexpectedResponse(_, 302, _, _) = error else { throw error }
        }
        #expect(provider.count("/elsewhere") == 0)
    }
}
