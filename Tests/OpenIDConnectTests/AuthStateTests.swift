import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import Synchronization
import Testing
import TestSupport

/// The auth state against the development provider, signed in over plain HTTP (the login form
/// posted directly, as curl would; the browser path is tested in WebAuthSessionTests).
@Suite("Auth state: fresh tokens, single-flight refresh, userinfo")
struct AuthStateTests {
    static let client = OpenIDProvider.Client.demo

    /// A provider whose access tokens live 30 s: with the 60 s tolerance they are always due for refresh.
    func provider(lifetime: Int = 30) async throws -> OpenIDProvider {
        try await OpenIDProvider.start(accessTokenLifetime: lifetime)
    }

    /// Signs alice in without a browser: POST the login form, take the code from the 302, exchange it.
    func signIn(_ provider: OpenIDProvider, scopes: [String] = ["openid", "offline_access"]) async throws -> AuthState {
        let http = URLSessionHTTPClient()
        let configuration = try await ProviderConfiguration.discover(issuer: provider.issuer, using: http)
        let request = AuthorizationRequest(clientID: Self.client.clientID, redirectURI: try RedirectURI(Self.client.redirectURIs[0]),
                                           scopes: scopes)
        let login = HTTPRequest(method: "POST", url: request.url(authorizationEndpoint: configuration.authorizationEndpoint),
                                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                body: Data("username=alice&password=wonderland".utf8))
        let answer = try await http.send(login)
        let location = try #require(answer.headers["location"])
        let callback = try RedirectCallback(url: location, redirectURI: request.redirectURI)
        let response = try AuthorizationResponse(callback: callback, request: request, configuration: configuration)
        let tokens = try await TokenEndpoint(configuration: configuration, clientID: Self.client.clientID, http: URLSessionHTTPClient())
            .exchange(code: try #require(response.code), for: request)
        let idToken = try await IDTokenValidator(configuration: configuration, clientID: Self.client.clientID, http: URLSessionHTTPClient())
            .validate(try #require(tokens.idToken), nonce: request.nonce)
        return AuthState(configuration: configuration, clientID: Self.client.clientID, authorizationResponse: response,
                         tokenResponse: tokens, idToken: idToken)
    }

    /// Records every save, in order.
    final class SaveLog: Sendable {
        let saved = Mutex<[AuthState]>([])
        func save(_ state: AuthState) { saved.withLock { $0.append(state) } }
        var last: AuthState? { saved.withLock { $0.last } }
    }

    @Test("a fresh token is used as it is")
    func freshTokenNoRefresh() async throws {
        let provider = try await provider(lifetime: 3600)
        let manager = AuthStateManager(state: try await signIn(provider), http: URLSessionHTTPClient())
        let token = try await manager.freshAccessToken()
        #expect(await token == manager.state.accessToken)
        #expect(provider.refreshCount == 0)
    }

    @Test("ten concurrent callers with a stale token cause exactly one refresh, and the rotated token is saved first")
    func singleFlight() async throws {
        let provider = try await provider()
        let state = try await signIn(provider)
        let log = SaveLog()
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient()) { log.save($0) }
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await manager.withFreshTokens { accessToken, _ in
                        // Whoever gets the new token finds it already saved.
                        #expect(log.last?.accessToken == accessToken)
                        return accessToken
                    }
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(provider.refreshCount == 1, "counted at the provider")
        #expect(tokens.count == 1 && tokens.first != state.accessToken)
        #expect(log.last?.refreshToken != state.refreshToken, "the rotated refresh token is saved")
        #expect(await manager.state.refreshToken == log.last?.refreshToken)
    }

    @Test("a revoked refresh token marks the state as needing sign-in, and that is saved")
    func invalidGrant() async throws {
        let provider = try await provider()
        let state = try await signIn(provider)
        try await TokenEndpoint(configuration: state.configuration, clientID: state.clientID,
                                http: URLSessionHTTPClient()).revoke(try #require(state.refreshToken))
        let log = SaveLog()
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient()) { log.save($0) }
        do {
            _ = try await manager.freshAccessToken()
            Issue.record("a revoked refresh token worked")
        } catch {
            guard case .signInRequired(.refreshRejected(let oauth)) = error else { throw error }
            #expect(oauth.isInvalidGrant)
        }
        #expect(log.last?.reauthenticationReason != nil)
        await #expect(throws: AuthStateError.self) { try await manager.freshAccessToken() }
        #expect(provider.refreshCount == 1, "a state that needs sign-in does not ask again")
    }

    @Test("a network error leaves the state usable and unsaved")
    func networkError() async throws {
        let provider = try await provider()
        let state = try await signIn(provider)
        await provider.stop()
        let log = SaveLog()
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient()) { log.save($0) }
        do {
            _ = try await manager.freshAccessToken()
            Issue.record("refreshed against a stopped provider")
        } catch {
            guard case .openIDConnect(.http) = error else { throw error }
        }
        #expect(log.last == nil)
        #expect(await manager.state.reauthenticationReason == nil)
    }

    @Test("a state that cannot be saved hands out no new tokens")
    func saveFails() async throws {
        struct DiskFull: Error {}
        let provider = try await provider()
        let state = try await signIn(provider)
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient()) { _ in throw DiskFull() }
        await #expect(throws: AuthStateError.self) { try await manager.freshAccessToken() }
        #expect(await manager.state == state)
    }

    @Test("expireAccessToken saves the access token as expired and keeps the refresh token: the next call refreshes, once")
    func expireAccessToken() async throws {
        let provider = try await provider(lifetime: 3600)
        let state = try await signIn(provider)
        let log = SaveLog()
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient()) { log.save($0) }
        try await manager.expireAccessToken()
        #expect(log.last?.refreshToken == state.refreshToken && log.last?.isAccessTokenFresh(tolerance: .zero) == false)
        #expect(provider.refreshCount == 0, "expiring asks the provider nothing")
        let token = try await manager.freshAccessToken()
        #expect(provider.refreshCount == 1 && token != state.accessToken)
        #expect(try await manager.freshAccessToken() == token && provider.refreshCount == 1)
    }

    @Test("expireAccessToken(ifItIs:) expires only the token named (git's erase): another password changes nothing")
    func expireOnlyTheFailedToken() async throws {
        let provider = try await provider(lifetime: 3600)
        let state = try await signIn(provider)
        let log = SaveLog()
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient()) { log.save($0) }
        try await manager.expireAccessToken(ifItIs: "not-the-token")
        try await manager.expireAccessToken(ifItIs: "")
        let kept = await manager.state
        #expect(log.last == nil && kept.isAccessTokenFresh(tolerance: .zero), "nothing expired, nothing saved")
        try await manager.expireAccessToken(ifItIs: state.accessToken)
        #expect(log.last?.isAccessTokenFresh(tolerance: .zero) == false)
    }

    @Test("with a shared store, expireAccessToken expires what the store holds: another process's rotated refresh token is kept")
    func expireAccessTokenKeepsAnotherRefresh() async throws {
        let provider = try await provider(lifetime: 3600)
        let state = try await signIn(provider)
        let folder = TemporaryFiles.path("expire")
        let store = try FileAuthStateStore(name: "expire", directory: folder)
        try store.save(state)
        let other = AuthStateManager(state: state, store: store, http: URLSessionHTTPClient())
        let rotated = try await other.refreshNow().refreshToken  // another process refreshes: the old refresh token is spent
        #expect(rotated != nil && rotated != state.refreshToken)
        let manager = AuthStateManager(state: state, store: store, http: URLSessionHTTPClient())  // still holds the old tokens
        try await manager.expireAccessToken()
        #expect(try await store.load()?.refreshToken == rotated)
        let token = try await manager.freshAccessToken()
        #expect(provider.refreshCount == 2 && token != state.accessToken, "refreshed with the rotated refresh token")
    }

    @Test("userinfo with a fresh token; its sub is the ID token's")
    func userinfo() async throws {
        let provider = try await provider(lifetime: 3600)
        let manager = AuthStateManager(state: try await signIn(provider), http: URLSessionHTTPClient())
        let claims = try await manager.userinfo()
        #expect(claims["sub"] == .string(OpenIDProvider.User.alice.subject))
        #expect(claims["email"] == .string(OpenIDProvider.User.alice.email))
    }

    @Test("userinfo for another sub than the ID token's is refused, its claims never returned (Core §5.3.2)")
    func userinfoOtherSubject() async throws {
        let provider = try await provider(lifetime: 3600)
        let manager = AuthStateManager(state: try await signIn(provider), http: URLSessionHTTPClient())
        provider.faults = [.userinfoOtherSubject]
        let error = await #expect(throws: AuthStateError.self) { try await manager.userinfo() }
        #expect(error == .userinfoSubjectMismatch(expected: OpenIDProvider.User.alice.subject, actual: OpenIDProvider.User.bob.subject))
    }

    @Test("userinfo refreshes once and retries when the access token was revoked")
    func userinfoRetry() async throws {
        let provider = try await provider(lifetime: 3600)
        let state = try await signIn(provider)
        try await TokenEndpoint(configuration: state.configuration, clientID: state.clientID,
                                http: URLSessionHTTPClient()).revoke(try #require(state.accessToken))
        let manager = AuthStateManager(state: state, http: URLSessionHTTPClient())
        let claims = try await manager.userinfo()
        #expect(claims["sub"] == .string(OpenIDProvider.User.alice.subject))
        #expect(provider.refreshCount == 1)
        #expect(provider.requestCount("/userinfo") == 2)
    }

    @Test("the state survives encoding; another version is refused")
    func codable() async throws {
        let provider = try await provider(lifetime: 3600)
        let state = try await signIn(provider)
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(AuthState.self, from: data) == state)
        let future = String(decoding: data, as: UTF8.self).replacingOccurrences(of: #""version":\#(AuthState.currentVersion)"#, with: #""version":99"#)
        #expect(future != String(decoding: data, as: UTF8.self))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AuthState.self, from: Data(future.utf8)) }
    }
}
