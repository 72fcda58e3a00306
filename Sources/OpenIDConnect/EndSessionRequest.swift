import Foundation

/// An RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 §2): ends the person's
/// session at the provider and comes back to `postLogoutRedirectURI` with the `state` sent.
public struct EndSessionRequest: Sendable, Hashable {
    /// The ID token of the session to end, as a hint.
    public let idTokenHint: String?
    /// Where the provider sends the browser afterwards (registered with the provider).
    public let postLogoutRedirectURI: RedirectURI
    /// This client's ID.
    public let clientID: String
    /// A fresh random `state`, checked on the way back.
    public let state: String

    /// A request with a fresh `state`.
    public init(idTokenHint: String?, postLogoutRedirectURI: RedirectURI, clientID: String) {
        self.idTokenHint = idTokenHint
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.clientID = clientID
        self.state = Base64URL.random(bytes: 32)
    }

    /// The URL that starts the logout.
    public func url(endSessionEndpoint endpoint: URL) -> URL {
        var pairs: [(name: String, value: String)] = [
            ("client_id", clientID), ("post_logout_redirect_uri", postLogoutRedirectURI.string), ("state", state),
        ]
        if let idTokenHint { pairs.insert(("id_token_hint", idTokenHint), at: 0) }
        return FormURLEncoding.appending(pairs, to: endpoint)
    }

    /// Checks the redirect that ends the logout: the `state` must be the one sent.
    /// - Throws: ``OpenIDConnectError/stateMismatch``.
    public func validate(_ callback: RedirectCallback) throws(OpenIDConnectError) {
        guard callback["state"] == state else { throw .stateMismatch }
    }
}
