import DevProvider
import DevProviderTestSupport
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import TestSupport
import Testing

/// `private_key_jwt` (RFC 7523 §2.2) on both sides: the client signs a fresh assertion per
/// request with a key it reads from a PEM file; the development provider checks it against the
/// client's registered JWK (signature, `iss`/`sub`, `aud`, `exp`, a `jti` used once).
@Suite("private_key_jwt client authentication against the development provider")
struct PrivateKeyJWTTests {
    let raw = ProviderOverHTTP()

    /// A provider with `key-app`, a client that authenticates with `pair`'s key.
    func provider(_ pair: ClientKeyPair) async throws -> OpenIDProvider {
        try await raw.provider {
            $0.clients.append(OpenIDProvider.Client(clientID: "key-app", redirectURIs: [ProviderOverHTTP.redirect], jwk: pair.jwk))
        }
    }

    /// A code for `key-app`, from a password login.
    func code(_ provider: OpenIDProvider) async throws -> (String, AuthorizationRequest, ProviderConfiguration) {
        let (request, configuration) = try await raw.request(provider, client: "key-app")
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        return (try #require(try raw.response(try await raw.logIn(url), request, configuration).code), request, configuration)
    }

    @Test("an EC or RSA key signs the code exchange and each refresh; ES256, RS256 and PS256 are accepted",
          arguments: [(ClientKeyPair.Kind.ec, ClientKey.Algorithm?.none), (.rsa, nil), (.rsa, .ps256)])
    func signsEachRequest(kind: ClientKeyPair.Kind, algorithm: ClientKey.Algorithm?) async throws {
        let pair = try ClientKeyPair(kind)
        let provider = try await provider(pair)
        let (code, request, configuration) = try await code(provider)
        let endpoint = TokenEndpoint(configuration: configuration, clientID: "key-app",
                                     authentication: .privateKeyJWT(.pemFile(pair.path, keyID: "k1", algorithm: algorithm)),
http: URLSessionHTTPClient())
        let tokens = try await endpoint.exchange(code: code, for: request)
        let refreshed = try await endpoint.refresh(refreshToken: try #require(tokens.refreshToken))
        #expect(!refreshed.accessToken.isEmpty, "a second request signs a second assertion (a new jti)")
        #expect(ClientAuthentication.privateKeyJWT(.pemFile(pair.path)).description == "private_key_jwt with the PEM file \(pair.path)")
    }

    @Test("without an assertion, with another key, or with a replayed assertion the client is refused")
    func refusals() async throws {
        let pair = try ClientKeyPair(.ec)
        let provider = try await provider(pair)
        let (code, request, configuration) = try await code(provider)
        for authentication in [ClientAuthentication.none, .privateKeyJWT(.pemFile(try ClientKeyPair(.ec).path))] {
            do throws(OpenIDConnectError) {
                _ = try await TokenEndpoint(configuration: configuration, clientID: "key-app", authentication: authentication,
                                            http: URLSessionHTTPClient())
                    .exchange(code: code, for: request)
                Issue.record("\(authentication) was accepted")
            } catch {
                guard case .token(let oauth) = error else { throw error }
                #expect(oauth.error == "invalid_client")
            }
        }
        let assertion = try await ClientAssertion.make(clientID: "key-app", audience: configuration.tokenEndpoint.absoluteString,
                                                       key: .pemFile(pair.path))
        let form = { (token: String) in
            [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "key-app"),
             ("client_assertion_type", ClientAssertion.type), ("client_assertion", assertion)]
        }
        let (fresh, freshRequest, _) = try await self.code(provider)
        let tokens = try await TokenEndpoint(configuration: configuration, clientID: "key-app",
                                             authentication: .privateKeyJWT(.pemFile(pair.path)),
http: URLSessionHTTPClient()).exchange(code: fresh, for: freshRequest)
        let first = try await raw.post(configuration.tokenEndpoint, form(try #require(tokens.refreshToken)))
        #expect(first.status == 200, "\(raw.text(first))")
        let rotated = try #require(try JSONValue(parsing: raw.text(first))["refresh_token"]?.stringValue)
        let replay = try await raw.post(configuration.tokenEndpoint, form(rotated))
        #expect(replay.status == 401 && raw.text(replay).contains("invalid_client"), "a jti is good once")
    }

    @Test("a missing, unreadable or unusable key file is a typed error that names the file, never its content")
    func badKeyFiles() async throws {
        let provider = try await provider(try ClientKeyPair(.ec))
        let (code, request, configuration) = try await code(provider)
        let directory = FileManager.default.temporaryDirectory
        let garbage = TemporaryFiles.path("not-a-key", fileExtension: "pem")
        try Data("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".utf8).write(to: garbage)
        let missing = directory.appendingPathComponent("missing-\(UUID().uuidString).pem").path
        let rsa = try ClientKeyPair(.rsa)
        let cases: [(ClientKey, (ClientKeyError) -> Bool)] = [
            (.pemFile(missing), { if case .unreadable(missing, _) = $0 { true } else { false } }),
            (.pemFile(garbage.path), { $0 == .unsupportedKey(path: garbage.path) }),
            (.pemFile(rsa.path, algorithm: .es256), { $0 == .algorithmMismatch(path: rsa.path, algorithm: "ES256") }),
        ]
        for (key, expected) in cases {
            do throws(OpenIDConnectError) {
                _ = try await TokenEndpoint(configuration: configuration, clientID: "key-app", authentication: .privateKeyJWT(key),
                                            http: URLSessionHTTPClient())
                    .exchange(code: code, for: request)
                Issue.record("\(key) signed")
            } catch {
                guard case .clientKey(let keyError) = error else { throw error }
                #expect(expected(keyError), "\(keyError)")
                #expect(!error.description.contains("MII"), "the message does not quote the file")
            }
        }
    }

    @Test("a saved client records where the key is, not the key")
    func savedClientKeepsThePath() throws {
        let pair = try ClientKeyPair(.ec)
        let authentication = ClientAuthentication.privateKeyJWT(.pemFile(pair.path, keyID: "k1"))
        let saved = SavedClient(redirectURI: ProviderOverHTTP.redirect, scopes: ["openid"],
                                authenticationMethod: .init(authentication), privateKey: authentication.privateKey)
        let json = String(decoding: try JSONEncoder().encode(saved), as: UTF8.self)
        #expect(json.contains("private_key_jwt") && json.contains("k1"))
        #expect(!json.contains(String(pair.pem.split(separator: "\n")[1])), "no key bytes")
        #expect(try JSONDecoder().decode(SavedClient.self, from: Data(json.utf8)) == saved)
    }
}
