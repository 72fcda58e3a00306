import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import TestSupport
import Testing

/// Access tokens for narrower scopes or other resources (RFC 8707) through the refresh grant,
/// against the development provider: kept apart from the sign-in's own, a rotated refresh token
/// saved at once, a refused scope a typed error that leaves the sign-in usable.
@Suite("Auth state: scoped and resource access tokens, minimum validity, the ID token", .timeLimit(.minutes(2)))
struct ScopedAccessTokenTests {
    static let scopes = ["openid", "profile", "email", "offline_access"]

    /// alice signed in with ``scopes`` at a provider whose tokens live `lifetime` seconds.
    func signedIn(lifetime: Int = 3600) async throws -> (OpenIDProvider, AuthState) {
        let provider = try await OpenIDProvider.start(accessTokenLifetime: lifetime)
        return (provider, try await AuthStateTests().signIn(provider, scopes: Self.scopes))
    }

    @Test("a narrower scope: a token with that scope alone, cached apart; the sign-in's token and scopes stay")
    func narrowerScope() async throws {
        let (provider, state) = try await signedIn()
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient())
        let scoped = try await manager.freshAccessToken(scopes: ["profile email"])
        #expect(scoped.scopes == ["email", "profile"] && scoped.token != state.accessToken)
        #expect(try await introspect(scoped.token, issuer: provider.issuer)["scope"] == .string("email profile"), "the provider issued it so")
        let now = await manager.state
        #expect(now.accessToken == state.accessToken && now.lastTokenResponse?.scope == state.lastTokenResponse?.scope)
        #expect(now.scopedAccessTokens.values.map(\.token) == [scoped.token])
        #expect(try await manager.freshAccessToken(scopes: ["email", "profile"]) == scoped, "the same scopes in another order: the cached token")
        #expect(try await manager.freshAccessToken() == state.accessToken)
        #expect(provider.refreshCount == 1)
    }

    @Test("a scoped refresh's rotated refresh token replaces the saved one before the token is handed out")
    func rotationOnScopedRefresh() async throws {
        let (provider, state) = try await signedIn()
        let log = AuthStateTests.SaveLog()
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient()) { log.save($0) }
        let scoped = try await manager.freshAccessToken(scopes: ["profile"])
        let saved = try #require(log.last)
        #expect(saved.scopedAccessTokens.values.map(\.token) == [scoped.token], "saved before it was handed out")
        #expect(saved.refreshToken != nil && saved.refreshToken != state.refreshToken && saved.accessToken == state.accessToken)
        #expect(provider.liveRefreshTokenCount == 1, "the old refresh token is spent")
        let refreshed = try await manager.refreshNow()
        #expect(refreshed.lastTokenResponse?.scope == Self.scopes.joined(separator: " "), "the rotated refresh token carries the whole grant")
        #expect(provider.refreshCount == 2 && refreshed.reauthenticationReason == nil)
    }

    @Test("a resource indicator: the token's audience is that resource; the sign-in's is still the client")
    func resourceIndicator() async throws {
        let (provider, state) = try await signedIn()
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient())
        let api = try await manager.freshAccessToken(resources: ["https://api.example.com/"])
        #expect(try await introspect(api.token, issuer: provider.issuer)["aud"] == .array([.string("https://api.example.com/")]))
        #expect(try await introspect(try #require(state.accessToken), issuer: provider.issuer)["aud"] == .array([.string("webauth-demo")]))
        #expect(try await manager.freshAccessToken(scopes: ["profile"], resources: ["https://api.example.com/"]) != api, "another target, another token")
    }

    @Test("a scope the sign-in was not granted: invalid_scope as a typed error; the sign-in, its refresh token included, still works")
    func widerScopeRefused() async throws {
        let (provider, state) = try await signedIn(lifetime: 30)
        let log = AuthStateTests.SaveLog()
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient()) { log.save($0) }
        do {
            _ = try await manager.freshAccessToken(scopes: ["profile", "admin"])
            Issue.record("a wider scope was granted")
        } catch {
            guard case .accessTokenRefused(let target, let oauth) = error else { throw error }
            #expect(target == AccessTokenTarget(scopes: ["admin", "profile"]) && oauth.error == "invalid_scope")
            #expect(error.description.contains("scope 'admin profile'") && !error.description.contains(state.refreshToken ?? "-"))
        }
        #expect(log.last == nil && provider.liveRefreshTokenCount == 1, "nothing changed, nothing was spent")
        #expect(try await manager.freshAccessToken() != state.accessToken, "the sign-in refreshes as before")
    }

    @Test("a scoped and a main refresh at once take turns: each spends the refresh token the other left")
    func concurrentTargets() async throws {
        let (provider, state) = try await signedIn(lifetime: 30)
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient())
        async let main = manager.freshAccessToken()
        async let scoped = manager.freshAccessToken(scopes: ["profile"])
        let (token, narrow) = try await (main, scoped)
        #expect(token != narrow.token && provider.refreshCount == 2 && provider.liveRefreshTokenCount == 1)
        #expect(await manager.state.reauthenticationReason == nil)
    }

    @Test("another process's scoped refresh rotated the refresh token: a manager that read the file before uses the new one")
    func rotationSeenAcrossProcesses() async throws {
        let (_, store, state) = try await AuthStateFaultTests.savedStaleSignIn()
        let folder = store.fileURL.deletingLastPathComponent()
        let first = AuthStateManager(state: state, store: try FileAuthStateStore(name: "shared", directory: folder), http: URLSessionHTTPClient())
        let second = AuthStateManager(state: state, store: try FileAuthStateStore(name: "shared", directory: folder), http: URLSessionHTTPClient())
        _ = try await first.freshAccessToken(scopes: ["openid"])
        let token = try await second.freshAccessToken()
        let saved = try store.load()
        #expect(token != state.accessToken && saved?.reauthenticationReason == nil && saved?.accessToken == token)
    }

    @Test("a minimum validity longer than the token has left refreshes it; a shorter one does not")
    func minimumValidity() async throws {
        let (provider, state) = try await signedIn(lifetime: 600)
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient())
        #expect(try await manager.freshAccessToken(minimumValidity: .seconds(300)).token == state.accessToken)
        let renewed = try await manager.freshAccessToken(minimumValidity: .seconds(900))
        #expect(renewed.token != state.accessToken && provider.refreshCount == 1)
        #expect(renewed.tokenType == "Bearer" && renewed.scopes == Self.scopes && renewed.expiresAt.map { $0 > Date() } == true)
    }

    @Test("the ID token is renewed by a refresh when it expires within the minimum validity")
    func freshIDToken() async throws {
        let (provider, state) = try await signedIn(lifetime: 600)
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient())
        #expect(try await manager.freshIDToken(minimumValidity: .seconds(300)) == state.idToken)
        let renewed = try await manager.freshIDToken(minimumValidity: .seconds(900))
        #expect(renewed.rawValue != state.idToken?.rawValue && renewed.subject == state.idToken?.subject && provider.refreshCount == 1)
    }

    @Test("the cache of scoped tokens is saved under a key of its own, in format version 2; a state without it has none")
    func savedFormat() async throws {
        let (_, state) = try await signedIn()
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient())
        let scoped = try await manager.freshAccessToken(scopes: ["profile"])
        let current = await manager.state
        let encoded = try JSONEncoder().encode(current)
        let json = try JSONValue(parsing: String(decoding: encoded, as: UTF8.self))
        #expect(json["version"] == .number(2) && json["scoped_access_tokens"]?["scope=profile"]?["access_token"] == .string(scoped.token))
        #expect(try JSONDecoder().decode(AuthState.self, from: encoded) == current)
        var earlier = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(state)) as? [String: Any])
        earlier["scoped_access_tokens"] = nil  // as the version before the cache wrote it
        #expect(try JSONDecoder().decode(AuthState.self, from: JSONSerialization.data(withJSONObject: earlier)).scopedAccessTokens.isEmpty)
        #expect(!"\(scoped)".contains(scoped.token), "its description shows no token")
    }
}
