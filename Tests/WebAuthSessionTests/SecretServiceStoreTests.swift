import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

/// The Secret Service store against a real gnome-keyring on a private D-Bus session, each test
/// in a child process (it changes the environment). Each check returns a status for the child to exit with.
@Suite("Secret Service store", .timeLimit(.minutes(2)))
struct SecretServiceStoreTests {
    @Test("round trip, replace, remove, and the automatic choice picks it")
    func roundTrip() async {
        await #expect(processExitsWith: .success) {
            let bus = try PrivateKeyring.start()
            let status = try SecretServiceStoreTests.roundTripStatus()
            PrivateKeyring.stop(bus)
            exit(status)
        }
    }

    static func roundTripStatus() throws -> Int32 {
        guard SecretServiceAuthStateStore.isAvailable else { return 2 }
        guard try automaticAuthStateStore(name: "app") is SecretServiceAuthStateStore else { return 3 }
        let store = try SecretServiceAuthStateStore(name: "app")
        guard try store.load() == nil else { return 4 }
        let configuration = ProviderConfiguration(issuer: "https://id.example.com", authorizationEndpoint: URL(string: "https://id.example.com/a")!,
                                                  tokenEndpoint: URL(string: "https://id.example.com/t")!)
        for token in ["AT-1", "AT-2"] {
            let tokens = try JSONDecoder().decode(TokenResponse.self, from: Data(#"{"access_token":"\#(token)","token_type":"Bearer"}"#.utf8))
            try store.save(AuthState(configuration: configuration, clientID: "app", authorizationResponse: nil, tokenResponse: tokens, idToken: nil))
        }
        guard try store.load()?.accessToken == "AT-2" else { return 5 }
        guard try SecretServiceAuthStateStore(name: "other").load() == nil else { return 6 }
        try store.remove()
        guard try store.load() == nil else { return 7 }
        return 0
    }

    @Test("with no Secret Service the automatic choice is the file store")
    func fallback() async {
        await #expect(processExitsWith: .success) {
            setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus", 1)
            guard !SecretServiceAuthStateStore.isAvailable else { exit(2) }
            guard try automaticAuthStateStore(name: "app") is FileAuthStateStore else { exit(3) }
        }
    }
}
