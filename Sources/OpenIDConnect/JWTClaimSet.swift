package import JWTKit

/// Every claim of a JWT as JSON values: the payload type handed to jwt-kit for signing (the
/// development provider) and for verification (``IDTokenValidator``, which checks the claims
/// itself, so `verify(using:)` accepts all).
package struct JWTClaimSet: JWTPayload {
    /// The claims.
    package let claims: [String: JSONValue]

    /// A claim set.
    package init(claims: [String: JSONValue]) { self.claims = claims }
    package init(from decoder: any Decoder) throws { claims = try [String: JSONValue](from: decoder) }
    package func encode(to encoder: any Encoder) throws { try claims.encode(to: encoder) }
    /// Accepts: the claim rules are checked by whoever uses the claims.
    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}
