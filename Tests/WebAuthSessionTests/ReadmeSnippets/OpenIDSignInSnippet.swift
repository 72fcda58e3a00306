// SigningIn.md, "Without the engine: OpenIDSignIn and your own user agent", compiled (see LoginScriptSnippet.swift).
// snippet.hide
import OpenIDConnect
// snippet.show
import OpenIDSignIn
// snippet.hide

func openIDSignInSnippet() async throws {
// snippet.show

let client = OpenIDClient(issuer: "https://id.example.com", clientID: "my-app",
                          redirectURI: try RedirectURI("http://127.0.0.1/callback"))
let result = try await client.signIn(using: SystemBrowserUserAgent())
// snippet.hide
_ = result
}
