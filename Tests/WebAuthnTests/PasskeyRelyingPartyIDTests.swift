import Testing
@testable import WebAuthn

/// The relying party ID a page may name, from the origin the engine saw (WebAuthn §5.1.3 step 7).
@Suite("Passkey protocol: relying party IDs")
struct PasskeyRelyingPartyIDTests {
    static let suffixes: Set<String> = ["com", "co.uk", "github.io", "example"]

    @Test("the origin's host, or a parent domain that is not a public suffix", arguments: [
        ("https://login.example.com", nil, "login.example.com"),
        ("https://login.example.com", "example.com", "example.com"),
        ("https://login.example.com", "LOGIN.Example.COM", "login.example.com"),
        ("https://login.example.com:8443", "example.com", "example.com"),
        ("http://localhost:8080", nil, "localhost"),
        ("http://localhost:8080", "localhost", "localhost"),
        ("http://auth.localhost:8080", "localhost", "localhost"),
        ("https://a.b.example.co.uk", "example.co.uk", "example.co.uk"),
    ] as [(String, String?, String)])
    func allowed(origin: String, requested: String?, expected: String) throws {
        let origin = try #require(WebAuthnOrigin(url: origin + "/page"))
        #expect(try RelyingPartyID.validate(requested, for: origin, isPublicSuffix: { Self.suffixes.contains($0) }) == expected)
    }

    @Test("another site, a public suffix, a sibling, an IP address, plain http: SecurityError", arguments: [
        ("https://login.example.com", "bank.example"),          // another site
        ("https://login.example.com", "com"),                   // a public suffix
        ("https://evil.github.io", "github.io"),                // a public suffix with a dot
        ("https://login.example.com", "other.example.com"),     // a sibling
        ("https://login.example.com", "xample.com"),            // a suffix that is not a label boundary
        ("https://login.example.com", "login.example.com.evil.example"),
        ("https://login.example.com", "127.0.0.1"),
        ("http://127.0.0.1:8080", nil),                         // an address is not a domain
        ("https://[::1]:8443", nil),
        ("http://login.example.com", nil),                      // not a secure context
        ("http://localhost.evil.example", nil),                 // only localhost and names under it
        ("https://login.example.com", ""),
        ("https://login.example.com", "example.com."),
    ] as [(String, String?)])
    func refused(origin: String, requested: String?) throws {
        let origin = try #require(WebAuthnOrigin(url: origin + "/"))
        #expect { try RelyingPartyID.validate(requested, for: origin, isPublicSuffix: { Self.suffixes.contains($0) }) } throws: {
            ($0 as? WebAuthnDOMError)?.name == .security
        }
    }

    @Test("documents without a tuple origin have none", arguments: ["about:blank", "data:text/html,x", "file:///tmp/x.html",
                                                                    "com.example:/cb", "blob:https://example.com/1"])
    func opaque(url: String) {
        #expect(WebAuthnOrigin(url: url) == nil)
    }

    @Test("an origin serialises as HTML does: default ports left out, IPv6 in brackets")
    func serialisation() {
        #expect(WebAuthnOrigin(url: "https://Login.Example.com:443/x")?.description == "https://login.example.com")
        #expect(WebAuthnOrigin(url: "http://localhost:8080/x")?.description == "http://localhost:8080")
        #expect(WebAuthnOrigin(url: "http://[::1]:80/")?.description == "http://[::1]")
    }

    @Test("without a public suffix list, top-level domains are still refused")
    func fallback() throws {
        let origin = try #require(WebAuthnOrigin(url: "https://login.example.com/"))
        #expect(throws: WebAuthnDOMError.self) { try RelyingPartyID.validate("com", for: origin) }
        #expect(try RelyingPartyID.validate("example.com", for: origin) == "example.com")
    }
}
