import Testing
@testable import WebAuthSession

/// How ``LastingState`` reads a URL or a redirect's `Location` for userinfo: as leniently as a
/// browser, so that no spelling WebKit follows slips by (the engine's tests send the real ones).
@Suite("What a kept view's page leaves: userinfo in a reference")
struct LastingStateTests {
    @Test("a user or password in the authority, however the reference spells it, is userinfo",
          arguments: ["http://u1:pw@127.0.0.1:8080/auth/x", "HTTPS://u1@example.com", "//u1:pw@example.com/x", "\\\\u1:pw@example.com/x",
                      "http:\\\\u1:pw@example.com", "http:u1:pw@example.com/x", "http:/u1:pw@example.com", " ws://u1:pw@example.com/socket",
                      "ftp://u1:@example.com", "custom://u1:pw@example.com/x"])
    func userinfo(reference: String) {
        #expect(LastingState.carriesUserinfo(reference))
    }

    @Test("an @ in a path, a query, a fragment or an opaque URL is not",
          arguments: ["https://example.com/x?login_hint=alice@example.com", "https://example.com/#alice@example.com", "/people/alice@example.com",
                      "people/alice@example.com", "?hint=alice@example.com", "mailto:alice@example.com", "data:,alice@example.com",
                      "data:image/svg+xml,<style>@media print{}</style>", "https://example.com/@alice", ""])
    func noUserinfo(reference: String) {
        #expect(!LastingState.carriesUserinfo(reference))
    }
}
