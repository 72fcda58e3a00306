import Foundation

/// How a resource request carries the access token: `Bearer`, or for DPoP-bound tokens
/// (RFC 9449 §7) `DPoP` with a proof of the sign-in's key that names the request and the token.
extension AuthState {
    /// Whether the access token is DPoP-bound: the sign-in has a key and the provider issued
    /// `token_type` `DPoP` (a provider that ignores DPoP issues `Bearer`).
    public var isDPoPBound: Bool {
        dpopKey != nil && lastTokenResponse?.tokenType.caseInsensitiveCompare("DPoP") == .orderedSame
    }

    /// The headers that present the access token on a request `method url`: `Authorization`, and
    /// `DPoP` (with `ath`, and `nonce` when the server gave one) for a DPoP-bound token.
    /// - Throws: ``OpenIDConnectError/dpop(_:)`` if the proof cannot be signed.
    public func authorizationHeaders(method: String, url: URL, nonce: String? = nil) throws(OpenIDConnectError) -> [String: String] {
        let token = accessToken ?? ""
        guard isDPoPBound, let dpopKey else { return ["Authorization": "Bearer \(token)"] }
        do {
            return ["Authorization": "DPoP \(token)", "DPoP": try dpopKey.proof(method: method, url: url, accessToken: token, nonce: nonce)]
        } catch {
            throw .dpop(error)
        }
    }
}
