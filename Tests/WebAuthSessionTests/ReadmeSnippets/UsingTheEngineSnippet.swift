// UsingTheEngine.md's first example, compiled (see LoginScriptSnippet.swift).
// snippet.hide
import Foundation
// snippet.show
import OpenIDConnect
import WebAuthSession

// snippet.hide
enum UsingTheEngineSnippet {
    static func run(authorizationEndpoint: URL) async throws -> String? {
// snippet.show
let redirectURI = try RedirectURI("com.example.app:/oauth2redirect")
let request = AuthorizationRequest(clientID: "my-app", redirectURI: redirectURI)   // fresh state, nonce, PKCE
let session = WebAuthenticationSession(
    url: request.url(authorizationEndpoint: authorizationEndpoint),  // the provider's page
    redirectURI: redirectURI)
let callback = try await session.start()                          // shows the page, waits
guard callback["state"] == request.state else { throw OpenIDConnectError.stateMismatch }  // RFC 6749 §10.12
let code = callback["code"]                                       // query, fragment or form post
// snippet.hide
        return code
    }
}
