import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth login --user`: with no issuer, WebFinger (OpenID Connect Discovery 1.0 §2) on the
/// person's host names it, against the development provider in this process.
@Suite("webauth login --user: WebFinger finds the issuer (the built binary)", .startsWebKit(minutes: 3))
struct WebFingerCommandTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    func login(_ user: String) async throws -> WebAuthBinary.Run {
        try await webauth(["login", "--user", user, "--client-id", "webauth-demo", "--headless", "--store", "none",
                           "--script", try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)])
    }

    /// `acct:alice@HOST:PORT` of `provider`.
    func account(_ provider: OpenIDProvider) throws -> String {
        let url = try #require(URLComponents(string: provider.issuer))
        return "acct:alice@\(url.host!):\(url.port!)"
    }

    @Test("--user acct:… with no --issuer: WebFinger names the provider, and the sign-in is made with it")
    func signsInWithTheIssuerFound() async throws {
        let provider = try await OpenIDProvider.start()
        let run = try await login(try account(provider))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try JSONValue(parsing: run.stdout)["issuer"]?.stringValue == provider.issuer)
        #expect(provider.requestCount("/.well-known/webfinger") == 1 && provider.requestCount("/token") == 1)
    }

    @Test("a host that names no issuer: exit 3, and the message says to give --issuer; no page opens")
    func noIssuerLink() async throws {
        var settings = DevProviderConfiguration()
        settings.faults = [.webFingerWithoutIssuer]
        let provider = try await OpenIDProvider.start(configuration: settings)
        let run = try await login(try account(provider))
        #expect(run.status == 3 && run.stderr.contains("names no OpenID Connect issuer") && run.stderr.contains("--issuer"), "stderr: \(run.stderr)")
        #expect(provider.requestCount("/authorize") == 0)
    }

    @Test("plain http to another host, or what is not an identifier: exit 64 before any request")
    func refused() async throws {
        let http = try await login("http://id.example.com/alice")
        #expect(http.status == 64 && http.stderr.contains("plain http"), "stderr: \(http.stderr)")
        let xri = try await login("=alice")
        #expect(xri.status == 64 && xri.stderr.contains("--user"), "stderr: \(xri.stderr)")
    }
}
