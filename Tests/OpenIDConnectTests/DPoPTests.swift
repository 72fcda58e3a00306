import DevProvider
import DevProviderTestSupport
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import Testing

/// DPoP (RFC 9449) on both sides: the client proves possession of a per-sign-in key on the code
/// exchange, each refresh and userinfo, retrying once with a nonce the server demands; the
/// development provider checks the proofs, binds the tokens to the key and refuses them without it.
@Suite("DPoP-bound tokens against the development provider")
struct DPoPTests {
    let raw = ProviderOverHTTP()

    /// A signed-in state for the demo client whose tokens were asked for with `key`.
    func signIn(_ provider: OpenIDProvider, key: DPoPKey?) async throws -> AuthState {
        let (request, configuration) = try await raw.request(provider)
        let url = request.url(authorizationEndpoint: configuration.authorizationEndpoint)
        let code = try #require(try raw.response(try await raw.logIn(url), request, configuration).code)
        let tokens = try await TokenEndpoint(configuration: configuration, clientID: "webauth-demo", dpop: key,
                                             http: URLSessionHTTPClient()).exchange(code: code, for: request)
        return AuthState(configuration: configuration, clientID: "webauth-demo", authorizationResponse: nil, tokenResponse: tokens,
                         idToken: nil, dpopKey: key)
    }

    @Test("a DPoP sign-in gets DPoP tokens that work with proofs of its key only: userinfo, refresh, and not as Bearer")
    func boundTokens() async throws {
        let provider = try await raw.provider()
        let key = DPoPKey()
        let state = try await signIn(provider, key: key)
        #expect(state.lastTokenResponse?.tokenType == "DPoP" && state.isDPoPBound)
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient())
        #expect(try await manager.userinfo()["sub"] == .string(OpenIDProvider.User.alice.subject))
        let refreshed = try await manager.refreshNow()
        #expect(refreshed.isDPoPBound && refreshed.dpopKey == key, "the refresh used, and kept, the same key")
        #expect(try await manager.userinfo()["sub"] != nil)

        let userinfo = try #require(state.configuration.userinfoEndpoint)
        let token = try #require(refreshed.accessToken)
        let bearer = try await raw.http.send(HTTPRequest(url: userinfo, headers: ["Authorization": "Bearer \(token)"]))
        #expect(bearer.status == 401, "a bound token is not a bearer token")
        var stolen = refreshed
        stolen.dpopKey = DPoPKey()
        let other = try await raw.http.send(HTTPRequest(url: userinfo, headers: try stolen.authorizationHeaders(method: "GET", url: userinfo)))
        #expect(other.status == 401, "a proof of another key does not present it")
        do throws(AuthStateError) {
            try await AuthStateManager(state: stolen, http: URLSessionHTTPClient()).refreshNow()
            Issue.record("a refresh with another key was accepted")
        } catch {
            guard case .openIDConnect(.token(let oauth)) = error else { throw error }
            #expect(oauth.error == "invalid_dpop_proof")
        }
        let plain = try await signIn(provider, key: nil)
        #expect(plain.lastTokenResponse?.tokenType == "Bearer" && !plain.isDPoPBound)
    }

    @Test("a demanded nonce is used on a retry; a server that demands one again is a typed error, not a loop")
    func nonces() async throws {
        let provider = try await raw.provider()
        provider.faults = [.dpopNonce]
        let state = try await signIn(provider, key: DPoPKey())
        #expect(provider.requestCount("/token") == 2, "the exchange was retried once with the nonce")
        #expect(try await AuthStateManager(state: state, http: URLSessionHTTPClient()).userinfo()["sub"] != nil)
        #expect(provider.requestCount("/userinfo") == 2)

        provider.faults = [.dpopNonceLoop]
        let before = provider.requestCount("/token")
        do {
            _ = try await signIn(provider, key: DPoPKey())
            Issue.record("a sign-in passed a server whose nonces never settle")
        } catch let error as OpenIDConnectError {
            guard case .dpop(.nonceRefused(let url)) = error else { throw error }
            #expect(url == provider.issuer + "/token")
        }
        #expect(provider.requestCount("/token") == before + 2, "one retry, then stop")
    }

    @Test("a proof names the request without its query, the token by hash, and the key never shows")
    func proofContent() throws {
        let key = DPoPKey()
        let proof = try key.proof(method: "GET", url: URL(string: "https://api.example.com/items?id=1#top")!, accessToken: "tok", nonce: "n1")
        let parts = proof.split(separator: ".").map { part -> JSONValue in
            (try? JSONValue(parsing: String(decoding: Base64URL.decode(part) ?? Data(), as: UTF8.self))) ?? .null
        }
        #expect(parts[0]["typ"] == .string("dpop+jwt") && parts[0]["jwk"]?["d"] == nil && parts[0]["jwk"]?["crv"] == .string("P-256"))
        #expect(parts[1]["htu"] == .string("https://api.example.com/items") && parts[1]["htm"] == .string("GET"))
        #expect(parts[1]["ath"] == .string(DPoPKey.accessTokenHash("tok")) && parts[1]["nonce"] == .string("n1"))
        let saved = try JSONEncoder().encode(key)
        let secret = try #require(try JSONValue(parsing: String(decoding: saved, as: UTF8.self))["d"]?.stringValue)
        #expect(!key.description.contains(secret) && key.description.contains(key.thumbprint))
        #expect(try JSONDecoder().decode(DPoPKey.self, from: saved) == key)
    }
}
