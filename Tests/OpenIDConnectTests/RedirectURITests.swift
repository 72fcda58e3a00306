import OpenIDConnect
import Testing

@Suite("Redirect URI matching")
struct RedirectURITests {
    @Test("kinds", arguments: [
        ("com.example.app:/oauth2redirect", RedirectURI.Kind.customScheme),
        ("com.example://cb", .customScheme),
        ("http://127.0.0.1:8080/cb", .loopback),
        ("http://[::1]:8080/cb", .loopback),
        ("http://localhost:8080/cb", .loopback),
        ("https://app.example.com/cb", .https),
    ])
    func kinds(uri: String, kind: RedirectURI.Kind) throws {
        #expect(try RedirectURI(uri).kind == kind)
    }

    @Test("refused redirect URIs", arguments: [
        ("", RedirectURIError.malformed("")),
        ("not a uri", .malformed("not a uri")),
        ("/relative/path", .malformed("/relative/path")),
        ("com.example:/cb#frag", .hasFragment("com.example:/cb#frag")),
        ("javascript:alert(1)", .forbiddenScheme("javascript")),
        ("data:text/html,x", .forbiddenScheme("data")),
        ("file:///tmp/cb", .forbiddenScheme("file")),
        ("http://example.com/cb", .insecureHTTP("http://example.com/cb")),
        ("http://127.0.0.2.example.com/cb", .insecureHTTP("http://127.0.0.2.example.com/cb")),
    ])
    func refused(uri: String, error: RedirectURIError) {
        #expect(throws: error) { try RedirectURI(uri) }
    }

    @Test("any-port matching is for loopback only")
    func anyPortNeedsLoopback() {
        #expect(throws: RedirectURIError.anyPortRequiresLoopback("com.example:/cb")) {
            try RedirectURI("com.example:/cb", portMatching: .anyPort)
        }
    }

    @Test("exact matches, with any response attached", arguments: [
        ("com.example:/cb", "com.example:/cb?code=1&state=2"),
        ("com.example:/cb", "COM.EXAMPLE:/cb#access_token=x"),
        ("com.example://cb", "com.example://cb?code=1"),
        ("http://127.0.0.1:8080/cb", "http://127.0.0.1:8080/cb?code=1"),
        ("http://[::1]:8080/cb", "http://[::1]:8080/cb?code=1"),
        ("https://app.example.com/cb", "https://app.example.com:443/cb?code=1"),
        ("https://app.example.com:443/cb", "https://app.example.com/cb"),
        ("com.example:/cb?tenant=a", "com.example:/cb?tenant=a&code=1"),
    ])
    func matches(registered: String, candidate: String) throws {
        #expect(try RedirectURI(registered).matches(candidate))
    }

    @Test("lookalikes never match", arguments: [
        ("com.example:/cb", "com.example:/cbx"),
        ("com.example:/cb", "com.example:/cb/"),
        ("com.example:/cb", "com.example:/cb/../cb"),
        ("com.example:/cb", "com.example:/./cb"),
        ("com.example:/cb", "com.example:/c%62"),
        ("com.example:/cb", "com.example:/CB"),
        ("com.example:/cb", "com.example://cb"),
        ("com.example:/cb", "com.example.evil:/cb"),
        ("com.example:/cb", "xcom.example:/cb"),
        ("com.example://cb", "com.example://cb@evil"),
        ("com.example://cb", "com.example://evil@cb"),
        ("com.example://cb", "com.example://cb.evil"),
        ("http://127.0.0.1:8080/cb", "http://127.0.0.1:8081/cb"),
        ("http://127.0.0.1:8080/cb", "http://127.0.0.1/cb"),
        ("http://127.0.0.1:8080/cb", "http://127.0.0.1:8080@evil.com/cb"),
        ("http://127.0.0.1:8080/cb", "http://evil.com/?http://127.0.0.1:8080/cb"),
        ("http://127.0.0.1:8080/cb", "https://127.0.0.1:8080/cb"),
        ("http://127.0.0.1:8080/cb", "http://localhost:8080/cb"),
        ("http://127.0.0.1:8080/cb", "http://127.0.0.1:8080/cb%2F.."),
        ("https://app.example.com/cb", "https://app.example.com.evil.com/cb"),
        ("https://app.example.com/cb", "https://app.example.com/cb2"),
        ("com.example:/cb?tenant=a", "com.example:/cb?tenant=b&code=1"),
        ("com.example:/cb", "not a url at all"),
        ("com.example:/cb", ""),
    ])
    func lookalikes(registered: String, candidate: String) throws {
        #expect(!(try RedirectURI(registered).matches(candidate)))
    }

    @Test("any port: same loopback host and path, another port")
    func anyPort() throws {
        let uri = try RedirectURI("http://127.0.0.1:1/cb", portMatching: .anyPort)
        #expect(uri.matches("http://127.0.0.1:49152/cb?code=1"))
        #expect(!uri.matches("http://127.0.0.1:49152/cbx"))
        #expect(!uri.matches("http://localhost:49152/cb"))
    }
}
