import Testing
import WebAuthSupport

/// "Did you mean …?" for misspelt keys in login scripts, batch files and the configuration file.
@Suite("Spelling suggestions")
struct SpellingTests {
    static let known = ["issuer", "client_id", "redirect_uri", "scopes", "scope", "par", "dpop"]

    @Test("a slip of up to two edits, in any case, names the known key; a far one lists the known ones")
    func suggestions() {
        #expect(Spelling.suggestion(for: "redirect_url", among: Self.known) == "redirect_uri")
        #expect(Spelling.suggestion(for: "Client_ID", among: Self.known) == "client_id")
        #expect(Spelling.suggestion(for: "cliend_idxx", among: Self.known) == nil, "three edits")
        #expect(Spelling.suggestion(for: "issu", among: Self.known) == "issuer", "two characters short")
        #expect(Spelling.suggestion(for: "scopess", among: Self.known) == "scopes", "the nearer of scope and scopes")
        #expect(Spelling.unknown("key", "colour", among: Self.known)
                == "unknown key 'colour' (known: client_id, dpop, issuer, par, redirect_uri, scope, scopes)")
    }

    /// The fuzzer's config target met a 4 KB key: the distance to every known key cost
    /// length × length each, about 8 ms an input under ASan; a key far longer than every known
    /// one is now not compared at all, and still gets no suggestion.
    @Test("a very long unknown key gets no suggestion")
    func longKey() {
        let key = String(repeating: "redirect_uri", count: 350)
        #expect(Spelling.suggestion(for: key, among: Self.known) == nil)
        #expect(Spelling.unknown("key", key, among: Self.known).hasPrefix("unknown key '\(key)' (known: client_id,"))
    }
}
