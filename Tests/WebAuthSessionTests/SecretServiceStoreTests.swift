import Foundation
import OpenIDConnect
import Synchronization
import Testing
import TestSupport
@testable import WebAuthSession

/// The Secret Service store against a real gnome-keyring on a private D-Bus session, each test
/// in a child process (it changes the environment). Each check returns a status for the child to exit with.
@Suite("Secret Service store", .timeLimit(.minutes(2)))
struct SecretServiceStoreTests {
    @Test("round trip, replace, remove, and the automatic choice picks it")
    func roundTrip() async {
        await #expect(processExitsWith: .success) {
            let bus = try PrivateKeyring.start()
            let status = try await SecretServiceStoreTests.roundTripStatus()
            PrivateKeyring.stop(bus)
            exit(status)
        }
    }

    static func roundTripStatus() async throws -> Int32 {
        guard await SecretServiceAuthStateStore.isAvailable, await SecretServiceAuthStateStore.problem() == nil else { return 2 }
        guard try await automaticAuthStateStore(name: "app") is FallbackAuthStateStore else { return 3 }
        let store = try SecretServiceAuthStateStore(name: "app")
        guard try await store.load() == nil else { return 4 }
        for token in ["AT-1", "AT-2"] { try await store.save(try state(token)) }
        guard try await store.load()?.accessToken == "AT-2" else { return 5 }
        guard try await SecretServiceAuthStateStore(name: "other").load() == nil else { return 6 }
        guard try await SecretServiceAuthStateStore.savedNames() == ["app"] else { return 8 }
        try await store.remove()
        guard try await store.load() == nil else { return 7 }
        return 0
    }

    static func state(_ accessToken: String) throws -> AuthState {
        let configuration = ProviderConfiguration(issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/a")!,
                                                  tokenEndpoint: URL(string: "https://id.example.com/t")!)
        let tokens = try JSONDecoder().decode(TokenResponse.self, from: Data(#"{"access_token":"\#(accessToken)","token_type":"Bearer"}"#.utf8))
        return AuthState(configuration: configuration, clientID: "app", authorizationResponse: nil, tokenResponse: tokens, idToken: nil)
    }

    @Test("with no Secret Service the automatic choice is the file store")
    func fallback() async {
        await #expect(processExitsWith: .success) {
            setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus", 1)
            guard await !SecretServiceAuthStateStore.isAvailable else { exit(2) }
            guard case .unreachable? = await SecretServiceAuthStateStore.problem() else { exit(4) }
            guard try await automaticAuthStateStore(name: "app") is FileAuthStateStore else { exit(3) }
        }
    }

    @Test("a broken keyring still leaves a usable sign-in: with no \"login\" collection the check says so, and the state goes to the file")
    func brokenKeyring() async {
        await #expect(processExitsWith: .success) {
            let bus = try PrivateKeyring.start(unlocked: false)
            // Whatever happens, the daemons go: they hold this child's channel to the test open.
            let status = (try? await SecretServiceStoreTests.brokenKeyringStatus()) ?? 9
            PrivateKeyring.stop(bus)
            exit(status)
        }
    }

    static func brokenKeyringStatus() async throws -> Int32 {
        guard await SecretServiceAuthStateStore.problem() == .noDefaultCollection else { return 2 }
        let keyring = try SecretServiceAuthStateStore(name: "app")
        do {
            try await keyring.save(try state("AT-1"))
            return 3  // the keyring took it after all: nothing here is broken
        } catch {}
        let directory = TemporaryFiles.path("webauth-fallback")
        let told = Mutex<[URL]>([])
        let store = FallbackAuthStateStore(primary: keyring, fallback: try FileAuthStateStore(name: "app", directory: directory)) { _, file in
            told.withLock { $0.append(file) }
        }
        try await store.save(try state("AT-1"))
        guard told.withLock({ $0 }) == [directory.appendingPathComponent("app.json")] else { return 4 }
        guard try await store.load()?.accessToken == "AT-1" else { return 5 }
        guard try FileAuthStateStore(name: "app", directory: directory).load()?.accessToken == "AT-1" else { return 6 }
        try await store.remove()
        guard try await store.load() == nil else { return 7 }
        return 0
    }

    @Test("a keyring that does not answer holds no thread of Swift's pool: other work goes on meanwhile")
    func offThePool() async {
        await #expect(processExitsWith: .success) {
            // A session bus that takes connections and never answers: every libsecret call waits for good.
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-mute-bus-\(UUID().uuidString.prefix(8))").path
            let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8.prefix($0.count - 1)) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, listen(listener, 64) == 0 else { exit(3) }
            setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + path, 1)
            let order = Order()
            // More waiting calls than the pool has threads: with blocking calls on the pool, nothing else could run.
            for index in 0..<(ProcessInfo.processInfo.activeProcessorCount * 2 + 2) {
                Task {
                    _ = try? await SecretServiceAuthStateStore(name: "app-\(index)").load()
                    await order.append("load")
                }
            }
            await Task { await order.append("other work") }.value
            unlink(path)
            exit(await order.entries == ["other work"] ? 0 : 2)
        }
    }
}

/// What happened first, for ``SecretServiceStoreTests/offThePool()``.
private actor Order {
    var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
}
