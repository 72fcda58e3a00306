// GettingStartedPopup.md's overview, compiled (see LoginScriptSnippet.swift).
import OpenIDConnect
import WebAuthSession

// snippet.hide
enum PopupArticleSnippet {
    static func run(myGtkWindow: UnsafeMutableRawPointer) async throws -> SignInResult {
// snippet.show
let client = OpenIDConnectClient(issuer: "https://id.example.com", clientID: "my-app",
                                 redirectURI: try RedirectURI("com.example.app:/oauth2redirect"))
var options = WebAuthenticationOptions()                                  // a 480×640 window by default
options.parentWindow = ParentWindow(gtkWindow: myGtkWindow)     // optional: modal to your window
let result = try await client.signIn(scopes: ["openid", "profile", "offline_access"], options: options)
print(result.idToken.subject)
// snippet.hide
        return result
    }
}
