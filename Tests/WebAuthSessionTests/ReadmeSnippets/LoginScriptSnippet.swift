// LoginScripts.md's Swift example, compiled: lines between `snippet.hide` and `snippet.show` are
// this file's own; the rest must equal a guide's block (ReadmeSnippetTests).
// snippet.hide
import OpenIDConnect
import WebAuthSession

enum LoginScriptSnippet {
    static func run(client: OpenIDConnectClient, options: WebAuthenticationOptions) async throws -> SignInResult {
// snippet.show
let script = LoginScript([.fill("#username", .literal("alice")), .fill("#password", .environment("ALICE_PASSWORD")),
                          .click("#sign-in")])
let result = try await client.signIn(options: options, script: script.runner())
// snippet.hide
        return result
    }
}
