import OpenIDConnect

/// What a completed sign-in produced. The tokens are credentials: `description` hides them.
public struct SignInResult: Sendable, Hashable, CustomStringConvertible {
    /// The provider's configuration (discovered or given).
    public let configuration: ProviderConfiguration
    /// The request that was sent.
    public let request: AuthorizationRequest
    /// The checked authorization response.
    public let authorizationResponse: AuthorizationResponse
    /// The token-endpoint response (absent for implicit response types).
    public let tokens: TokenResponse?
    /// The validated ID token.
    public let idToken: IDToken
    /// The key the tokens are bound to, when the client asked for DPoP (RFC 9449).
    public var dpopKey: DPoPKey? = nil

    /// The state to keep (and give to an `AuthStateManager`).
    public var authState: AuthState {
        AuthState(configuration: configuration, clientID: request.clientID, authorizationResponse: authorizationResponse,
                  tokenResponse: tokens, idToken: idToken, dpopKey: dpopKey)
    }

    public var description: String {
        "SignInResult(issuer: \(configuration.issuer), sub: \(idToken.subject), tokens: \(tokens.map(\.description) ?? "none"))"
    }
}
