extension AuthState {
    /// Revokes this sign-in's refresh token at the provider (RFC 7009), through `http`.
    /// - Returns: whether it was revoked; `false` when there is no refresh token or the provider
    ///   has no revocation endpoint. `webauth login` and `logout` and the broker's `SignIn` and
    ///   `SignOut` revoke so.
    public func revokeRefreshToken(authentication: ClientAuthentication, http: any HTTPClient) async throws(OpenIDConnectError) -> Bool {
        guard configuration.revocationEndpoint != nil, let refreshToken else { return false }
        let endpoint = TokenEndpoint(configuration: configuration, clientID: clientID, authentication: authentication, http: http)
        try await endpoint.revoke(refreshToken, hint: "refresh_token")
        return true
    }
}
