import Foundation

/// A validated ID token: the raw JWT and its claims.
public struct IDToken: Sendable, Hashable, Codable {
    /// The compact JWT, as received (a credential: never log it).
    public let rawValue: String
    /// The token's claims.
    public let claims: IDTokenClaims

    /// `iss` (``IDTokenClaims/issuer``).
    public var issuer: String { claims.issuer }
    /// `sub`: the user's identifier at the provider (``IDTokenClaims/subject``).
    public var subject: String { claims.subject }
    /// `aud`, as a list (``IDTokenClaims/audiences``).
    public var audiences: [String] { claims.audiences }
    /// `exp` (``IDTokenClaims/expiresAt``).
    public var expiresAt: Date { claims.expiresAt }
    /// `iat` (``IDTokenClaims/issuedAt``).
    public var issuedAt: Date { claims.issuedAt }
    /// `nonce`, if present (``IDTokenClaims/nonce``).
    public var nonce: String? { claims.nonce }
}
