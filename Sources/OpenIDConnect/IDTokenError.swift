/// Why an ID token was rejected (OpenID Connect Core §3.1.3.7, §3.2.2.11, §3.3.2.12).
public enum IDTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not three base64url parts with a JSON header and payload.
    case malformed(String)
    /// The `alg` is not an asymmetric signature algorithm this client accepts (`none`, `HS256`...).
    case unsupportedAlgorithm(String)
    /// No key with this `kid` in the provider's JWKS, even after fetching it again.
    case unknownKey(kid: String?)
    /// The key's type or `alg` does not fit the token's `alg` (an algorithm-confusion attempt).
    case keyAlgorithmMismatch(alg: String, kid: String?)
    /// The signature does not verify with the provider's key.
    case invalidSignature
    /// The JWKS could not be fetched or read.
    case keySetUnavailable(String)
    /// `iss` is not the provider's issuer.
    case issuerMismatch(expected: String, actual: String)
    /// `aud` does not contain the client ID, or `azp` is not the client ID.
    case audienceMismatch(clientID: String, audiences: [String], authorizedParty: String?)
    /// `exp` is in the past (beyond the allowed clock skew).
    case expired(expiresAt: Int, now: Int)
    /// `iat` is in the future (beyond the allowed clock skew).
    case issuedInFuture(issuedAt: Int, now: Int)
    /// `nonce` is missing or not the one sent.
    case nonceMismatch
    /// `at_hash` is missing or does not match the access token.
    case accessTokenHashMismatch
    /// `c_hash` is missing or does not match the code.
    case codeHashMismatch
    /// A required claim (`iss`, `sub`, `aud`, `exp`, `iat`) is missing or of the wrong type.
    case missingClaim(String)
    /// A refreshed ID token is about another person than the first one (Core §12.2).
    case subjectChanged(previous: String, now: String)
    /// The request's `max_age` has passed since the login the token reports (`auth_time`): sign in again.
    case authenticationTooOld(authTime: Int, maxAge: Int, now: Int)
    /// The request asked for a new login (`prompt=login`) but the token reports an earlier one:
    /// the provider did not make the person log in again.
    case authenticationBeforeRequest(authTime: Int, requestedAt: Int)
    /// In the hybrid flow, the token endpoint's ID token and the front channel's disagree on
    /// `claim` (`iss` or `sub`, Core §3.3.3.6): they are not from the same sign-in.
    case hybridMismatch(claim: String, frontChannel: String, tokenEndpoint: String)

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed: \(reason)"
        case .unsupportedAlgorithm(let alg): "algorithm '\(alg)' is not accepted"
        case .unknownKey(let kid): "no key '\(kid ?? "(none)")' in the provider's key set"
        case .keyAlgorithmMismatch(let alg, let kid): "key '\(kid ?? "(none)")' cannot be used with \(alg)"
        case .invalidSignature: "the signature does not verify"
        case .keySetUnavailable(let reason): "the provider's key set is unavailable: \(reason)"
        case .issuerMismatch(let expected, let actual): "issued by '\(actual)', expected '\(expected)'"
        case .audienceMismatch(let clientID, let audiences, let azp):
            "audience \(audiences) / azp \(azp ?? "none") is not for client '\(clientID)'"
        case .expired(let expiresAt, let now): "expired at \(expiresAt) (now \(now))"
        case .issuedInFuture(let issuedAt, let now): "issued in the future at \(issuedAt) (now \(now))"
        case .nonceMismatch: "the nonce does not match the request's"
        case .accessTokenHashMismatch: "at_hash does not match the access token"
        case .codeHashMismatch: "c_hash does not match the code"
        case .missingClaim(let name): "missing or invalid claim '\(name)'"
        case .subjectChanged(let previous, let now): "the refreshed ID token is for '\(now)', not '\(previous)'"
        case .authenticationTooOld(let authTime, let maxAge, let now):
            "the login at \(authTime) is older than max_age \(maxAge) s (now \(now)): sign in again"
        case .authenticationBeforeRequest(let authTime, let requestedAt):
            "prompt=login asked for a new login, but the token reports one at \(authTime), before the request at \(requestedAt)"
        case .hybridMismatch(let claim, let frontChannel, let tokenEndpoint):
            "the token endpoint's ID token has \(claim) '\(tokenEndpoint)', the authorization response's '\(frontChannel)'"
        }
    }
}
