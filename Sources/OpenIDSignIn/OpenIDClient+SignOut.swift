import OpenIDConnect

extension OpenIDClient {
    /// Signs out at the provider (RP-Initiated Logout) through `agent`: presents its end-session
    /// page with the ID token as a hint and takes the redirect back to `postLogoutRedirectURI`
    /// (by default the sign-in redirect URI), checking its `state`. `clearWebsiteData` then has
    /// the agent delete what it keeps of the person's sessions
    /// (``AuthorizationUserAgent/clearWebsiteData()``); `store`, if given, is emptied.
    /// - Returns: `state`, marked as signed out.
    /// - Throws: ``OpenIDClientError``; `OpenIDConnectError.missingEndpoint` when the provider has no end-session endpoint.
    public func signOut(_ state: AuthState, using agent: some AuthorizationUserAgent, postLogoutRedirectURI: RedirectURI? = nil,
                        clearWebsiteData: Bool = false, store: (any AuthStateStore)? = nil) async throws(OpenIDClientError) -> AuthState {
        guard let endpoint = state.configuration.endSessionEndpoint else { throw .openIDConnect(.missingEndpoint("end_session_endpoint")) }
        let redirect = try await mapping(await agent.redirectURI(for: postLogoutRedirectURI ?? redirectURI), as: OpenIDClientError.userAgent)
        let request = EndSessionRequest(idTokenHint: state.idToken?.rawValue, postLogoutRedirectURI: redirect, clientID: clientID)
        let presentation = AuthorizationPresentation(url: request.url(endSessionEndpoint: endpoint), redirectURI: redirect,
                                                     expectedState: request.state, purpose: .endSession)
        let callback = try await mapping(await agent.present(presentation), as: OpenIDClientError.userAgent)
        try await mapping(request.validate(callback), as: OpenIDClientError.openIDConnect)
        if clearWebsiteData { try await mapping(await agent.clearWebsiteData(), as: OpenIDClientError.userAgent) }
        if let store { try await mapping(await store.remove(), as: OpenIDClientError.storage) }
        var signedOut = state
        signedOut.reauthenticationReason = .signedOut
        return signedOut
    }
}
