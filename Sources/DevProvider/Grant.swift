/// What a person allowed a client, as the token endpoint redeems it: from an authorization code,
/// a refresh token, or an approved device code.
struct Grant: Sendable {
    let clientID: String
    /// The redirect URI the code was sent to (empty for a device grant).
    let redirectURI: String
    /// The PKCE S256 challenge the code is bound to (empty for a device grant).
    let codeChallenge: String
    let nonce: String?
    let subject: String
    let scope: String
    /// The thumbprint of the DPoP key the grant's tokens are bound to, once they are.
    var jkt: String? = nil
}
