import DevProvider
import Foundation
import OpenIDConnect
import Testing

@Suite("https for the provider: issuer, endpoints and jwks_uri (plain http only for a loopback issuer or by opt-in)")
struct TransportSecurityTests {
    static let endpointNames = ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "end_session_endpoint",
                                "jwks_uri", "revocation_endpoint"]

    /// A discovery document for `issuer` whose endpoints are under `issuer`, except `insecure`, which is plain http.
    static func document(issuer: String, insecure: String? = nil) -> JSONValue {
        var fields: [String: JSONValue] = ["issuer": .string(issuer)]
        for name in endpointNames {
            let base = name == insecure ? issuer.replacingOccurrences(of: "https://", with: "http://") : issuer
            fields[name] = .string(base + "/" + name)
        }
        return .object(fields)
    }

    /// A provider reached as `origin` (through ``HostMappingHTTPClient``) that serves `document`.
    func provider(_ origin: String, _ document: JSONValue) async throws -> (TestProviderServer, HostMappingHTTPClient) {
        let server = try await TestProviderServer.start()
        server.json("/.well-known/openid-configuration", document)
        return (server, HostMappingHTTPClient(origin: origin, server: server))
    }

    @Test("an https issuer's discovered endpoints must all be https; the error names the one that is not", arguments: endpointNames)
    func discoveredEndpoint(name: String) async throws {
        let issuer = "https://id.example.com"
        let (_, http) = try await provider(issuer, Self.document(issuer: issuer, insecure: name))
        await #expect(throws: OpenIDConnectError.insecureEndpoint(name: name, url: "http://id.example.com/\(name)")) {
            try await ProviderConfiguration.discover(issuer: issuer, using: http)
        }
    }

    @Test("an https issuer whose endpoints are all https is discovered")
    func allHTTPS() async throws {
        let issuer = "https://id.example.com"
        let (_, http) = try await provider(issuer, Self.document(issuer: issuer))
        let configuration = try await ProviderConfiguration.discover(issuer: issuer, using: http)
        #expect(configuration.jwksURI == URL(string: "https://id.example.com/jwks_uri"))
    }

    @Test("a plain http issuer that is not loopback is refused before it is asked, and accepted with allowInsecureHTTP")
    func insecureIssuer() async throws {
        let issuer = "http://id.example.com"
        let (server, http) = try await provider(issuer, Self.document(issuer: issuer))
        await #expect(throws: OpenIDConnectError.insecureEndpoint(name: "issuer", url: issuer)) {
            try await ProviderConfiguration.discover(issuer: issuer, using: http)
        }
        #expect(server.count("/.well-known/openid-configuration") == 0, "the issuer was asked over plain http")
        let configuration = try await ProviderConfiguration.discover(issuer: issuer, allowInsecureHTTP: true, using: http)
        #expect(configuration.tokenEndpoint == URL(string: "http://id.example.com/token_endpoint"))
    }

    @Test("a loopback issuer may use plain http", arguments: [
        "http://127.0.0.1:8080", "http://127.3.4.5", "http://localhost:9000/realms/dev", "http://LOCALHOST", "http://[::1]:8080",
    ])
    func loopbackIssuer(issuer: String) throws {
        let configuration = ProviderConfiguration(issuer: issuer, authorizationEndpoint: URL(string: issuer + "/authorize")!,
                                                  tokenEndpoint: URL(string: issuer + "/token")!, jwksURI: URL(string: issuer + "/jwks")!)
        try configuration.checkTransportSecurity()
    }

    @Test("hosts that only look loopback, and schemes that are not http, are not exempt", arguments: [
        "http://127.0.0.1.example.com", "http://localhost.example.com", "http://128.0.0.1", "http://10.0.0.1", "http://[::2]",
        "http://[::ffff:10.0.0.1]", "ftp://127.0.0.1",
    ])
    func notLoopback(issuer: String) throws {
        let configuration = ProviderConfiguration(issuer: issuer, authorizationEndpoint: URL(string: "https://id.example.com/a")!,
                                                  tokenEndpoint: URL(string: "https://id.example.com/t")!)
        #expect(throws: OpenIDConnectError.insecureEndpoint(name: "issuer", url: issuer)) { try configuration.checkTransportSecurity() }
    }

    @Test("endpoints given by hand follow the same rule; the opt-in lets them through")
    func givenByHand() throws {
        let configuration = ProviderConfiguration(
            issuer: "https://login.example.com/tenant/v2.0/", authorizationEndpoint: URL(string: "https://login.example.com/authorize?p=b2c_1")!,
            tokenEndpoint: URL(string: "https://login.example.com/token")!, jwksURI: URL(string: "http://login.example.com/keys?p=b2c_1")!)
        #expect(throws: OpenIDConnectError.insecureEndpoint(name: "jwks_uri", url: "http://login.example.com/keys?p=<5>")) {
            try configuration.checkTransportSecurity()
        }
        try configuration.checkTransportSecurity(allowInsecureHTTP: true)
    }
}
