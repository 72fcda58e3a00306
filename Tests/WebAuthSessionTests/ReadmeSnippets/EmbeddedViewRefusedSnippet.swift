// SigningIn.md, "When the embedded view is refused", compiled (see LoginScriptSnippet.swift).
// snippet.hide
import OpenIDConnect
import WebAuthSession

enum EmbeddedViewRefusedSnippet {
    static func run(client: OpenIDConnectClient) async throws(SignInError) -> SignInResult {
// snippet.show
let result: SignInResult
do {
    result = try await client.signIn()
} catch .session(.embeddedViewRefused) {                          // Google's disallowed_useragent, and the like
    result = try await client.signInWithSystemBrowser()          // RFC 8252: the desktop's browser + a loopback listener
}
// snippet.hide
        return result
    }
}
