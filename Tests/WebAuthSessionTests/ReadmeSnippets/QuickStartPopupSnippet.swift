// README "2. A Swift app opens the popup", compiled (see LoginScriptSnippet.swift).
import OpenIDConnect
import WebAuthSession

// snippet.hide
enum QuickStartPopupSnippet {
    static func run() async throws {
// snippet.show
let client = OpenIDConnectClient(issuer: CommandLine.arguments[1], clientID: "webauth-demo",
                                 redirectURI: try RedirectURI("com.example.webauth:/callback"))
let result = try await client.signIn(scopes: ["openid", "profile", "offline_access"])   // the popup, then the code exchange
print("signed in as", result.idToken.subject, result.idToken.claims["email"] ?? .null)
// snippet.hide
    }
}
