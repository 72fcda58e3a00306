// SigningIn.md's first example, compiled (see LoginScriptSnippet.swift).
import OpenIDConnect
import WebAuthSession

// snippet.hide
enum SigningInSnippet {
    static func run() async throws {
// snippet.show
let client = OpenIDConnectClient(issuer: "https://id.example.com", clientID: "my-app",
                                 redirectURI: try RedirectURI("com.example.app:/oauth2redirect"))
let result = try await client.signIn(scopes: ["openid", "profile", "offline_access"],
                                     additionalParameters: ["acr_values": "idp:google"])
print(result.idToken.subject, result.idToken.claims["email"] ?? .null)
// snippet.hide
    }
}
