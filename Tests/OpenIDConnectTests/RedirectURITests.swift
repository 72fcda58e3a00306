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
        ("http://127.0.0.2:8080/cb", .loopback),
        ("http://127.255.255.254:8080/cb", .loopback),
        ("http://[0:0:0:0:0:0:0:1]:8080/cb", .loopback),
        ("http://LOCALHOST:8080/cb", .loopback),
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
        ("http://128.0.0.1/cb", .insecureHTTP("http://128.0.0.1/cb")),
        ("http://[::2]:8080/cb", .insecureHTTP("http://[::2]:8080/cb")),
        ("com.example:/c%6", .notNormalizable("com.example:/c%6")),
        ("com.example:/c%zz", .notNormalizable("com.example:/c%zz")),
        ("com.example:/a/../cb", .notNormalizable("com.example:/a/../cb")),
        ("https://app.example.com/./cb", .notNormalizable("https://app.example.com/./cb")),
        ("http://[::1x]:8080/cb", .notNormalizable("http://[::1x]:8080/cb")),
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

    /// Written otherwise than WebKit reports it: each failed to match on the old exact-string
    /// rule, so the navigation carrying the code was let through to the network.
    @Test("registered and reported forms are compared normalised (RFC 3986 §6.2.2–6.2.3)", arguments: [
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/?code=1"),
        ("https://App.Example.com/cb", "https://app.example.com/cb?code=1"),
        ("http://LOCALHOST:8080/cb", "http://localhost:8080/cb?code=1"),
        ("https://a.example:443/cb", "https://a.example/cb?code=1"),
        ("http://127.0.0.1:80/cb", "http://127.0.0.1/cb?code=1"),
        ("HTTPS://a.example/cb", "https://a.example/cb#code=1"),
        ("com.example:/c%62", "com.example:/cb?code=1"),
        ("com.example:/cb", "com.example:/c%62?code=1"),
        ("com.example:/a%7Eb", "com.example:/a~b?code=1"),
        ("com.example:/a%2fb", "com.example:/a%2Fb?code=1"),
        ("com.example://App/cb", "com.example://app/cb?code=1"),
        ("http://[0:0:0:0:0:0:0:1]:8080/cb", "http://[::1]:8080/cb?code=1"),
    ])
    func normalised(registered: String, candidate: String) throws {
        #expect(try RedirectURI(registered).matches(candidate))
    }

    @Test("normalisation is for matching only: the URI is sent as registered")
    func sentAsRegistered() throws {
        let uri = try RedirectURI("https://App.Example.com:443")
        #expect(uri.string == "https://App.Example.com:443")
        #expect(uri.normalized == "https://app.example.com/")
    }

    @Test("near misses: the redirect URI's own origin, not the redirect URI", arguments: [
        ("http://127.0.0.1:8080/cb", "http://127.0.0.1:8080/cbx", true),
        ("http://127.0.0.1:8080/cb", "http://127.0.0.1:8080/", true),
        ("http://127.0.0.1:8080/cb", "http://127.0.0.1:8081/cbx", false),
        ("https://App.example.com/cb", "https://app.example.com:443/other", true),
        ("https://app.example.com/cb", "https://id.example.com/cb", false),
        ("com.example://cb/x", "com.example://CB/y", true),
    ])
    func nearMiss(registered: String, candidate: String, sameOrigin: Bool) throws {
        let uri = try RedirectURI(registered)
        #expect(uri.sharesOrigin(with: candidate) == sameOrigin)
        #expect(!uri.matches(candidate))
    }

    @Test("any port: same loopback host and path, another port")
    func anyPort() throws {
        let uri = try RedirectURI("http://127.0.0.1:1/cb", portMatching: .anyPort)
        #expect(uri.matches("http://127.0.0.1:49152/cb?code=1"))
        #expect(!uri.matches("http://127.0.0.1:49152/cbx"))
        #expect(!uri.matches("http://localhost:49152/cb"))
    }
}

@Suite("A loopback redirect URI's aliases")
struct LoopbackAliasTests {
    @Test("with http://127.0.0.1:PORT/cb registered, localhost and [::1] on that port are near misses; other ports are not",
          arguments: ["http://localhost:8765/cb?code=x", "http://[::1]:8765/cb", "http://127.0.0.2:8765/", "http://LOCALHOST:8765/other"])
    func aliases(candidate: String) throws {
        let uri = try RedirectURI("http://127.0.0.1:8765/cb")
        #expect(!uri.matches(candidate))
        #expect(uri.sharesOrigin(with: candidate))
    }

    @Test("other ports and hosts, and a custom scheme's URI, are not the redirect URI's origin")
    func notAliases() throws {
        let uri = try RedirectURI("http://127.0.0.1:8765/cb")
        #expect(!uri.sharesOrigin(with: "http://localhost:8766/cb"))
        #expect(!uri.sharesOrigin(with: "https://localhost:8765/cb"))
        #expect(!uri.sharesOrigin(with: "http://example.com:8765/cb"))
        #expect(!(try RedirectURI("https://app.example.com/cb")).sharesOrigin(with: "https://localhost/cb"))
    }
}
