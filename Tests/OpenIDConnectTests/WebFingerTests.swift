import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import Testing

/// WebFinger issuer discovery (OpenID Connect Discovery 1.0 §2, RFC 7033) against the development
/// provider's `/.well-known/webfinger`: what a person types, normalised as §2.1 says, then asked
/// of its host, over https (plain http only for this machine).
@Suite("WebFinger issuer discovery")
struct WebFingerTests {
    @Test("§2.1 normalisation: an e-mail address is an acct: URI, a host or URL is https, the fragment goes", arguments: [
        ("alice@example.com", "acct:alice@example.com", "example.com", "https"),
        ("  acct:joe@example.com ", "acct:joe@example.com", "example.com", "https"),
        ("https://example.com/joe#me", "https://example.com/joe", "example.com", "https"),
        ("example.com", "https://example.com", "example.com", "https"),
        ("example.com:8080", "https://example.com:8080", "example.com:8080", "https"),
        ("joe@example.com:8080", "https://joe@example.com:8080", "example.com:8080", "https"),
        ("alice@127.0.0.1", "acct:alice@127.0.0.1", "127.0.0.1", "http"),
        ("acct:alice@localhost:9000", "acct:alice@localhost:9000", "localhost:9000", "http"),
        ("http://127.0.0.1:9000/alice", "http://127.0.0.1:9000/alice", "127.0.0.1:9000", "http"),
    ])
    func normalisation(input: String, resource: String, host: String, scheme: String) throws {
        let query = try WebFingerQuery(user: input)
        #expect(query.resource == resource && query.host == host && query.scheme == scheme, "\(query)")
        let url = query.url.absoluteString
        #expect(url.hasPrefix("\(scheme)://\(host)/.well-known/webfinger?resource="), "\(url)")
        #expect(url.hasSuffix("&rel=http%3A%2F%2Fopenid.net%2Fspecs%2Fconnect%2F1.0%2Fissuer"), "\(url)")
    }

    @Test("what is not an identifier is a typed error", arguments: ["", "  ", "=alice", "@alice", "ftp://example.com/alice", "acct:alice", "acct:@example.com", "https://"])
    func notAnIdentifier(input: String) {
        #expect(throws: WebFingerError.notAnIdentifier(input)) { try WebFingerQuery(user: input) }
    }

    @Test("acct: on this machine: the provider names itself, and discovery of that issuer works")
    func acctOnLoopback() async throws {
        let provider = try await OpenIDProvider.start()
        let host = try #require(URLComponents(string: provider.issuer).flatMap { c in c.port.map { "\(c.host!):\($0)" } })
        let issuer = try await WebFingerQuery(user: "acct:alice@\(host)").issuer(using: URLSessionHTTPClient())
        #expect(issuer == provider.issuer)
        #expect(try await ProviderConfiguration.discover(issuer: issuer, using: URLSessionHTTPClient()).issuer == provider.issuer)
        #expect(provider.requestCount("/.well-known/webfinger") == 1)
    }

    @Test("an e-mail address is asked of its host over https (the provider stands behind example.com's origin)")
    func emailForm() async throws {
        let provider = try await OpenIDProvider.start()
        let http = HostMappingHTTPClient(origin: "https://example.com", target: provider.issuer)
        #expect(try await WebFingerQuery(user: "alice@example.com").issuer(using: http) == provider.issuer)
        let unknown = await #expect(throws: OpenIDConnectError.self) { try await WebFingerQuery(user: "mallory@example.com").issuer(using: http) }
        guard case .unexpectedResponse(_, 404, _, _)? = unknown else { Issue.record("an unknown user is the host's 404: \(String(describing: unknown))"); return }
    }

    @Test("an answer without the issuer link is a typed error that says to give the issuer")
    func noIssuerLink() async throws {
        var settings = DevProviderConfiguration()
        settings.faults = [.webFingerWithoutIssuer]
        let provider = try await OpenIDProvider.start(configuration: settings)
        let http = HostMappingHTTPClient(origin: "https://example.com", target: provider.issuer)
        let error = await #expect(throws: OpenIDConnectError.self) { try await WebFingerQuery(user: "alice@example.com").issuer(using: http) }
        #expect(error == .webFinger(.noIssuerLink(resource: "acct:alice@example.com", host: "example.com")))
        #expect(error?.description.contains("give --issuer") == true)
    }

    @Test("plain http to a host that is not this machine is refused before any request, as discovery refuses it")
    func httpRefused() async throws {
        let provider = try await OpenIDProvider.start()
        let http = HostMappingHTTPClient(origin: "http://example.com", target: provider.issuer)
        let error = await #expect(throws: OpenIDConnectError.self) { try await WebFingerQuery(user: "http://example.com/alice").issuer(using: http) }
        guard case .webFinger(.insecure)? = error else { Issue.record("refused as insecure: \(String(describing: error))"); return }
        #expect(provider.requestCount("/.well-known/webfinger") == 0)
        // Opted in, as discovery's allowInsecureHTTP: asked.
        #expect(try await WebFingerQuery(user: "http://example.com/alice").issuer(allowInsecureHTTP: true, using: http) == provider.issuer)
    }
}
