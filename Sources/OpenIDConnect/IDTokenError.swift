/// Why an ID token was rejected (OpenID Connect Core §3.1.3.7, §3.2.2.11, §3.3.2.12).
public enum IDTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not three base64url parts with a JSON header and payload.
    case malformed(String)
    /// The `alg` is not one this client accepts: unknown, `none` for a client that did not register
    /// it, or HMAC (`HS256`...) for a client without a secret.
    case unsupportedAlgorithm(String)
    /// The token's `alg` is not the one the client registered (`id_token_signed_response_alg`):
    /// a token may not choose another, HMAC least of all.
    case algorithmNotRegistered(alg: String, registered: String)
    /// An unsigned token (`alg: none`) for a client that registered `none`, but not from the token
    /// endpoint over https in the code flow (Core §3.1.3.7): where it came from is `reason`.
    case unsignedRefused(reason: String)
    /// An HMAC token, but the client secret is shorter than the hash (RFC 7518 §3.2): it cannot be
    /// the key.
    case clientSecretTooShort(alg: String, bytes: Int, needed: Int)
    /// No key with this `kid` in the provider's JWKS, even after fetching it again.
    case unknownKey(kid: String?)
    /// The keys with this `kid` may not verify the token's `alg`: their type, `alg`, `use` or
    /// `key_ops` do not fit (an algorithm-confusion attempt, or an encryption key).
    case keyAlgorithmMismatch(alg: String, kid: String?)
    /// Several keys of the provider's set may verify the token's `alg` and nothing tells them apart
    /// (no `kid`, or one shared): the provider must name the key.
    case ambiguousKey(alg: String, kid: String?, candidates: Int)
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
    /// `at_hash` does not match the access token.
    case accessTokenHashMismatch
    /// `c_hash` does not match the code.
    case codeHashMismatch
    /// `at_hash` is missing, though the token came with an access token from the authorization
    /// endpoint (implicit `id_token token`).
    case missingAccessTokenHash
    /// `c_hash` is missing, though the token came with a code from the authorization endpoint
    /// (hybrid `code id_token`).
    case missingCodeHash
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
        case .ambiguousKey(let alg, let kid, let candidates):
            "\(candidates) keys\(kid.map { " with kid '\($0)'" } ?? "") in the provider's key set may verify \(alg), "
                + "and the token does not say which: the provider must give each key its own kid and name it"
        case .algorithmNotRegistered(let alg, let registered):
            "signed with \(alg), but the client registered \(registered) (id_token_signed_response_alg)"
        case .unsignedRefused(let reason): "an unsigned ID token (alg none) is accepted only from the token endpoint over https in the code flow, not \(reason)"
        case .clientSecretTooShort(let alg, let bytes, let needed):
            "\(alg) needs a client secret of at least \(needed) bytes as its key; this one has \(bytes)"
        case .invalidSignature: "the signature does not verify"
        case .keySetUnavailable(let reason): "the provider's key set is unavailable: \(reason)"
        case .issuerMismatch(let expected, let actual): "issued by '\(actual)', expected '\(expected)'"
        case .audienceMismatch(let clientID, let audiences, let azp):
            "audience \(audiences) / azp \(azp ?? "none") is not for client '\(clientID)'"
        case .expired(let expiresAt, let now): "expired at \(expiresAt) (now \(now))"
        case .issuedInFuture(let issuedAt, let now): "issued in the future at \(issuedAt) (now \(now))"
        case .nonceMismatch: "the nonce does not match the request's"
        case .accessTokenHashMismatch: "at_hash is different from the access token's hash"
        case .codeHashMismatch: "c_hash is different from the code's hash"
        case .missingAccessTokenHash: "at_hash is missing: the ID token does not bind the access token that came with it"
        case .missingCodeHash: "c_hash is missing: the ID token does not bind the code that came with it"
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
