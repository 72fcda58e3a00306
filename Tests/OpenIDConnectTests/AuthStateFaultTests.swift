import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import TestSupport
import Testing

/// Faults around the saved sign-in: each ends in a typed error, and nothing is half-written.
@Suite("Auth state under faults", .timeLimit(.minutes(2)))
struct AuthStateFaultTests {
    /// A stale sign-in (tokens live 30 s, inside the 60 s tolerance) saved in a fresh directory.
    static func savedStaleSignIn() async throws -> (OpenIDProvider, FileAuthStateStore, AuthState) {
        let provider = try await OpenIDProvider.start(accessTokenLifetime: 30)
        let state = try await AuthStateTests().signIn(provider)
        let directory = TemporaryFiles.path("state")
        let store = try FileAuthStateStore(name: "shared", directory: directory)
        try store.save(state)
        return (provider, store, state)
    }

    @Test("two managers on the same file (as two processes) refresh once; both end with the same saved state")
    func sharedFileRefreshesOnce() async throws {
        let (provider, store, state) = try await Self.savedStaleSignIn()
        // Each manager opens the lock file itself, as another process would: flock() makes them take turns.
        let first = AuthStateManager(state: state, store: try FileAuthStateStore(name: "shared", directory: store.fileURL.deletingLastPathComponent()),
                                     http: URLSessionHTTPClient())
        let second = AuthStateManager(state: state, store: try FileAuthStateStore(name: "shared", directory: store.fileURL.deletingLastPathComponent()),
                                      http: URLSessionHTTPClient())
        async let a = first.freshAccessToken()
        async let b = second.freshAccessToken()
        let (tokenA, tokenB) = try await (a, b)
        #expect(provider.refreshCount == 1, "the second found the first's refresh under the lock")
        #expect(tokenA == tokenB && tokenA != state.accessToken)
        #expect(try store.load()?.accessToken == tokenA)
    }

    @Test("a full disk during a refresh: a typed error, the saved state intact and readable, nobody given new tokens")
    func diskFull() async {
        await #expect(processExitsWith: .success) {
            let (_, store, state) = try await Self.savedStaleSignIn()
            let before = try Data(contentsOf: store.fileURL)
            // From here on no file of this process may grow past 64 bytes: writes fail with EFBIG, as on a full disk.
            signal(SIGXFSZ, SIG_IGN)
            var limit = rlimit(rlim_cur: 64, rlim_max: rlim_t.max)  // RLIM_INFINITY
            guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { exit(2) }
            let manager = AuthStateManager(state: state, store: store, http: URLSessionHTTPClient())
            do throws(AuthStateError) {
                _ = try await manager.freshAccessToken()
                exit(3)
            } catch {
                guard case .saveFailed = error else { exit(4) }
            }
            guard try Data(contentsOf: store.fileURL) == before else { exit(5) }
            guard try store.load() == state else { exit(6) }
            guard await manager.state == state else { exit(7) }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.fileURL.deletingLastPathComponent().path)
            guard leftovers.sorted() == ["shared.json"] else { exit(8) }  // no temporary file left behind, nor the lock file
        }
    }

    @Test("a read-only state directory: a typed error before the refresh token is spent, the saved state intact and readable")
    func readOnlyDirectory() async {
        await #expect(processExitsWith: .success) {
            let (provider, store, state) = try await Self.savedStaleSignIn()
            let directory = store.fileURL.deletingLastPathComponent().path
            let before = try Data(contentsOf: store.fileURL)
            // Root writes through any mode bits, so as root this process becomes `nobody` (the owner of
            // the files from here on) first: the mode then binds it as it binds any user.
            if geteuid() == 0 {
                guard let nobody = getpwnam("nobody")?.pointee else { exit(2) }
                for path in [directory, store.fileURL.path] {
                    guard chown(path, nobody.pw_uid, nobody.pw_gid) == 0 else { exit(2) }
                }
                guard setgid(nobody.pw_gid) == 0, setuid(nobody.pw_uid) == 0 else { exit(2) }
            }
            guard chmod(directory, 0o500) == 0, access(directory, W_OK) != 0 else { exit(2) }
            let manager = AuthStateManager(state: state, store: store, http: URLSessionHTTPClient())
            do throws(AuthStateError) {
                _ = try await manager.freshAccessToken()
                exit(3)
            } catch {
                guard case .saveFailed(let message) = error, message.contains("Permission denied") else { exit(4) }
            }
            guard provider.refreshCount == 0 else { exit(5) }  // the saved refresh token is still the valid one
            guard try Data(contentsOf: store.fileURL) == before, try store.load() == state else { exit(6) }
            guard await manager.state == state else { exit(7) }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
            guard leftovers.sorted() == ["shared.json"] else { exit(8) }
        }
    }

    @Test("a token response cut off mid-JSON is an unexpected response, not a crash")
    func truncatedTokenResponse() async throws {
        let server = try await TestProviderServer.start()
        server.on("/token") { _ in
            LocalHTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: #"{"access_token": "abc", "token_ty"#)
        }
        let configuration = ProviderConfiguration(issuer: server.issuer, authorizationEndpoint: server.url("/authorize"),
                                                  tokenEndpoint: server.url("/token"))
        do throws(OpenIDConnectError) {
            _ = try await TokenEndpoint(configuration: configuration, clientID: "c", http: URLSessionHTTPClient()).refresh(refreshToken: "r")
            Issue.record("a cut-off response was accepted")
        } catch {
            guard case .unexpectedResponse(_, let status, _, let snippet) = error else { throw error }
            #expect(status == 200 && snippet.contains("token_ty"))
        }
    }

    @Test("a provider slower than the client's timeout is a network error")
    func slowerThanTimeout() async throws {
        var settings = DevProviderConfiguration()
        settings.faults = [.slow]
        settings.slowResponseSeconds = 5
        let provider = try await OpenIDProvider.start(configuration: settings)
        do throws(OpenIDConnectError) {
            _ = try await ProviderConfiguration.discover(issuer: provider.issuer, using: URLSessionHTTPClient(timeout: .seconds(1)))
            Issue.record("no timeout")
        } catch {
            guard case .http(.network) = error else { throw error }
        }
    }
}
