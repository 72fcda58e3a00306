// GettingStartedTestHarness.md's overview, compiled (see LoginScriptSnippet.swift).
import Foundation
import OpenIDConnect
import WebAuthSession

// snippet.hide
enum TestHarnessArticleSnippet {
    static func run() async throws -> SignInResult {
// snippet.show
try WebAuthEngine.configure(EngineConfiguration(display: .virtual, prewarmsWebViews: true))
let client = OpenIDConnectClient(issuer: "https://id.example.com", clientID: "ci",
                                 redirectURI: try RedirectURI("com.example.ci:/callback"))
let script = LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("ALICE_PASSWORD")),
                          .pressEnter("#password")])
let pool = SignInPool(client: client, width: 10)
try await pool.prewarm()
let result = try await pool.signIn(script: script.runner(artifactsDirectory: URL(fileURLWithPath: "ci-artifacts")))
// snippet.hide
        return result
    }
}
