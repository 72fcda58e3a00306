// SigningIn.md, "Staying signed in", compiled (see LoginScriptSnippet.swift).
// snippet.hide
import OpenIDConnect
import WebAuthSession

enum StayingSignedInSnippet {
    static func callMyAPI(bearer: String) async throws -> String { bearer }

    static func run(client: OpenIDConnectClient, result: SignInResult) async throws {
// snippet.show
let store = try await automaticAuthStateStore(name: "my-app")  // the keychain if there is one, else a file
let manager = AuthStateManager(state: result.authState, store: store, http: URLSessionHTTPClient())
let profile = try await manager.withFreshTokens { accessToken, idToken in
    try await callMyAPI(bearer: accessToken)                   // refreshed first when within 60 s of expiry
}
let claims = try await manager.userinfo()                      // on 401: one refresh, one retry; sub must match
let signedOut = try await client.signOut(result.authState, store: store)   // RP-initiated logout; empties the store
// snippet.hide
        _ = (profile, claims, signedOut)
    }
}
