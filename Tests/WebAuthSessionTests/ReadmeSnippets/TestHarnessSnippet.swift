// GettingStartedTestHarness.md, "Scripts, artefacts and the pool", compiled (see LoginScriptSnippet.swift).
// snippet.hide
import OpenIDConnect
import WebAuthSession

enum TestHarnessSnippet {
    static func run(client: OpenIDConnectClient) async throws -> SignInResult {
// snippet.show
let script = LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("ALICE_PASSWORD")),
                          .pressEnter("#password")])
let pool = SignInPool(client: client, width: 10)                 // many sign-ins at once on one warm engine
try await pool.prewarm()
let result = try await pool.signIn(script: script.runner())
// snippet.hide
        return result
    }
}
