import Foundation
import OpenIDConnect
import Testing

/// The saved sign-in's format: it carries a version, older files are migrated when read, newer
/// ones refused, and the client record holds a reference to a secret, never its value.
@Suite("Saved sign-in format")
struct SavedFormatTests {
    /// A version-1 file as `webauth login` 1.x wrote it (a real sign-in at the development provider).
    static let versionOne = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/auth-state-v1.json")

    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webauth-format-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("a version-1 file is migrated when read, and saved again in the current version")
    func migratesVersionOne() throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let store = try FileAuthStateStore(name: "default", directory: base)
        try FileManager.default.copyItem(at: Self.versionOne, to: store.fileURL)
        let original = try JSONValue(parsing: String(contentsOf: Self.versionOne, encoding: .utf8))
        #expect(original["state"]?["version"] == .number(1))

        let state = try #require(try store.load())
        #expect(state.version == AuthState.currentVersion && state.client == nil)
        #expect(state.accessToken == original["state"]?["last_token_response"]?["access_token"]?.stringValue)
        #expect(state.refreshToken != nil && state.idToken?.subject == "248289761001")
        #expect(state.configuration.issuer == original["state"]?["configuration"]?["issuer"]?.stringValue)

        try store.save(state)
        let rewritten = try JSONValue(parsing: String(contentsOf: store.fileURL, encoding: .utf8))
        #expect(rewritten["state"]?["version"] == .number(Double(AuthState.currentVersion)))
        #expect(try store.load() == state)
    }

    @Test("a file from a newer version is refused with a message that says what to do, and left untouched")
    func refusesNewerVersion() throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let store = try FileAuthStateStore(name: "default", directory: base)
        let future = #"{"format":"webauthsession.auth-state","state":{"version":3,"hologram":true}}"#
        try Data(future.utf8).write(to: store.fileURL)
        let refused = AuthStateStoreError.newerVersion(path: store.fileURL.path, version: 3)
        #expect(throws: refused) { try store.load() }
        #expect(throws: refused) { try store.save(try FileAuthStateStoreTests.state()) }
        #expect(try String(contentsOf: store.fileURL, encoding: .utf8) == future)
        #expect(refused.description.contains("newer version") && refused.description.contains("use the newer version, or remove it"))
    }

    @Test("the client record keeps the redirect URI, scopes, method and a reference to the secret")
    func clientRecord() throws {
        var state = try FileAuthStateStoreTests.state()
        state.client = SavedClient(redirectURI: "com.example.app:/cb", scopes: ["openid", "offline_access"],
                                   authenticationMethod: .clientSecretPost, clientSecret: .environment("APP_SECRET"))
        let encoded = try JSONValue(parsing: String(decoding: try JSONEncoder().encode(state), as: UTF8.self))
        #expect(encoded["client"] == .object(["redirect_uri": .string("com.example.app:/cb"),
                                              "scopes": .array([.string("openid"), .string("offline_access")]),
                                              "token_endpoint_auth_method": .string("client_secret_post"),
                                              "client_secret_reference": .object(["environment": .string("APP_SECRET")])]))
        #expect(try JSONDecoder().decode(AuthState.self, from: try JSONEncoder().encode(state)) == state)
        #expect(SavedClient.AuthenticationMethod.clientSecretPost.authentication(secret: "s") == .clientSecretPost(secret: "s"))
    }

    @Test("a saved route keeps paths and addresses: a proxy's password is dropped when it is made and when it is read")
    func routeHoldsNoPassword() throws {
        let route = SavedRoute(proxy: "http://carol:s3cret@proxy.example:3128", noProxy: ["intranet.example"], caFile: "/etc/ca.pem",
                               clientCertificate: "pkcs11:token=alice;object=login")
        #expect(route.proxy == "http://carol@proxy.example:3128")
        let written = String(decoding: try JSONEncoder().encode(route), as: UTF8.self)
        #expect(!written.contains("s3cret") && written.contains("no_proxy") && written.contains("ca_file") && written.contains("client_certificate"))
        let handEdited = Data(#"{"proxy": "http://carol:s3cret@proxy.example:3128"}"#.utf8)
        #expect(try JSONDecoder().decode(SavedRoute.self, from: handEdited).proxy == "http://carol@proxy.example:3128")
        #expect(SavedRoute().isEmpty && !route.isEmpty)
    }
}
