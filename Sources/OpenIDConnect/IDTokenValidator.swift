import Foundation
internal import JWTKit

/// Validates ID tokens the way OpenID Connect Core §3.1.3.7 says: the signature against the
/// provider's JWKS (asymmetric algorithms only, the key's type and `alg` must fit the token's
/// `alg`, one refetch of the JWKS for an unknown `kid`, at most once a minute), then `iss`,
/// `aud`/`azp`, `exp` and `iat` with a clock skew, `nonce`, `auth_time` when the request asked for
/// `max_age` or `prompt=login`, `at_hash`/`c_hash` when the token came with an access token or a
/// code from the front channel, and in the hybrid flow that the token endpoint's ID token has the
/// front channel's `iss` and `sub`. The signature is checked by jwt-kit.
public struct IDTokenValidator: Sendable {
    /// The issuer the token must come from.
    public let issuer: String
    /// This client's ID, which must be among the audiences.
    public let clientID: String
    /// How far clocks may disagree for `exp`, `iat` and `auth_time`. Default: 60 seconds.
    public var clockSkew: Duration = .seconds(60)
    /// The current time (replaceable for tests of expiry and of the JWKS refetch interval).
    public var now: @Sendable () -> Date = { Date() }
    private let keySet: JWKSCache

    /// A validator for `configuration`'s issuer and key set.
    /// - Throws: ``OpenIDConnectError/missingEndpoint(_:)`` when the provider has no `jwks_uri`.
    public init(configuration: ProviderConfiguration, clientID: String,
                http: any HTTPClient = URLSessionHTTPClient()) throws(OpenIDConnectError) {
        guard let jwksURI = configuration.jwksURI else { throw .missingEndpoint("jwks_uri") }
        self.issuer = configuration.issuer
        self.clientID = clientID
        self.keySet = JWKSCache(url: jwksURI, http: http)
    }

    /// Starts fetching the provider's key set, so that validating the sign-in's token later does
    /// not wait for it (a failure is forgotten: validation fetches again).
    public func prefetchKeys() async {
        await keySet.prefetch()
    }

    /// Validates `token`.
    /// - Parameters:
    ///   - token: the compact JWT, as received.
    ///   - nonce: the nonce sent in the authorization request; `nil` only for tokens from a refresh.
    ///   - accessToken: the access token that came with the ID token from the authorization
    ///     endpoint (implicit and hybrid flows): `at_hash` is then required and checked.
    ///   - code: the code that came with the ID token from the authorization endpoint (hybrid
    ///     flow): `c_hash` is then required and checked.
    ///   - authTime: what `auth_time` must show (``AuthorizationRequest/authTimeRequirement``);
    ///     `nil` when the request had neither `max_age` nor `prompt=login`.
    ///   - frontChannel: in the hybrid flow, the validated ID token of the authorization response;
    ///     this one (the token endpoint's) must have the same `iss` and `sub` (Core §3.3.3.6).
    public func validate(_ token: String, nonce: String?, accessToken: String? = nil, code: String? = nil,
                         authTime: AuthTimeRequirement? = nil, frontChannel: IDToken? = nil) async throws(IDTokenError) -> IDToken {
        let header = try JOSEHeader(token)
        guard let alg = SignatureAlgorithm(rawValue: header.alg), let jwkAlgorithm = alg.jwkAlgorithm else {
            throw .unsupportedAlgorithm(header.alg)
        }
        var key = try await keySet.key(kid: header.kid, alg: alg, now: now())
        guard key.keyType == alg.keyType, key.algorithm == nil || key.algorithm == jwkAlgorithm else {
            throw .keyAlgorithmMismatch(alg: header.alg, kid: header.kid)
        }
        key.algorithm = jwkAlgorithm
        key.keyIdentifier = JWKIdentifier(string: header.kid ?? "id-token-key")
        let claims: [String: JSONValue]
        do {
            let keys = JWTKeyCollection()
            try await keys.add(jwk: key)
            claims = try await keys.verify(token, as: JWTClaimSet.self).claims
        } catch {
            throw .invalidSignature
        }
        try checkClaims(claims, nonce: nonce)
        try authTime?.check(claims, now: now(), leeway: clockSkew)
        if let frontChannel {
            for (claim, expected) in [("iss", frontChannel.issuer), ("sub", frontChannel.subject)] {
                let actual = claims[claim]?.stringValue ?? ""
                guard actual == expected else { throw .hybridMismatch(claim: claim, frontChannel: expected, tokenEndpoint: actual) }
            }
        }
        if let accessToken {
            guard claims["at_hash"]?.stringValue == alg.halfHash(of: accessToken) else { throw .accessTokenHashMismatch }
        }
        if let code {
            guard claims["c_hash"]?.stringValue == alg.halfHash(of: code) else { throw .codeHashMismatch }
        }
        return IDToken(rawValue: token, claims: IDTokenClaims(claims))
    }

    private func checkClaims(_ claims: [String: JSONValue], nonce: String?) throws(IDTokenError) {
        guard let iss = claims["iss"]?.stringValue else { throw .missingClaim("iss") }
        guard claims["sub"]?.stringValue?.isEmpty == false else { throw .missingClaim("sub") }
        guard let exp = claims["exp"]?.numberValue else { throw .missingClaim("exp") }
        guard let iat = claims["iat"]?.numberValue else { throw .missingClaim("iat") }
        let audiences = IDTokenClaims.strings(claims["aud"])
        guard !audiences.isEmpty else { throw .missingClaim("aud") }

        guard iss == issuer else { throw .issuerMismatch(expected: issuer, actual: iss) }
        let azp = claims["azp"]?.stringValue
        guard audiences.contains(clientID), azp == nil || azp == clientID, audiences.count == 1 || azp == clientID else {
            throw .audienceMismatch(clientID: clientID, audiences: audiences, authorizedParty: azp)
        }
        let current = now().timeIntervalSince1970
        let skew = Double(clockSkew.components.seconds)
        guard current < exp + skew else { throw .expired(expiresAt: Int(exp), now: Int(current)) }
        guard iat <= current + skew else { throw .issuedInFuture(issuedAt: Int(iat), now: Int(current)) }
        if let nonce {
            guard claims["nonce"]?.stringValue == nonce else { throw .nonceMismatch }
        }
    }
}

/// The protected header of a compact JWS: only what choosing the key needs.
package struct JOSEHeader: Decodable {
    package let alg: String
    package let kid: String?

    /// The header of `token`.
    package init(_ token: String) throws(IDTokenError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("not three dot-separated parts") }
        guard let data = Base64URL.decode(parts[0]), let header = try? JSONDecoder().decode(JOSEHeader.self, from: data) else {
            throw .malformed("the header is not base64url JSON with an alg")
        }
        self = header
    }
}
