import Foundation
internal import JWTKit

/// Validates ID tokens the way OpenID Connect Core §3.1.3.7 says: the signature (an asymmetric
/// one against the provider's JWKS, the key chosen as Core §10.1 says, one refetch of the JWKS for
/// an unknown `kid`, at most once a minute; an HMAC one with the client secret, Core §10.1; the one
/// algorithm the client registered, if it registered one; unsigned only as ``IDTokenSigning/unsigned``
/// allows), then `iss`, `aud`/`azp`, `exp` and `iat` with a clock skew, `nonce`, `auth_time` when the
/// request asked for `max_age` or `prompt=login`, `at_hash`/`c_hash` when the token came with an
/// access token or a code from the front channel, and in the hybrid flow that the token endpoint's
/// ID token has the front channel's `iss` and `sub`. jwt-kit checks asymmetric signatures,
/// swift-crypto HMACs.
public struct IDTokenValidator: Sendable {
    /// The issuer the token must come from.
    public let issuer: String
    /// This client's ID, which must be among the audiences.
    public let clientID: String
    /// What the client registered as `id_token_signed_response_alg`; `nil`: any asymmetric
    /// algorithm, and HMAC when the client has a secret.
    public let signing: IDTokenSigning?
    /// How far clocks may disagree for `exp`, `iat` and `auth_time`. Default: 60 seconds.
    public var clockSkew: Duration = .seconds(60)
    /// The current time (replaceable for tests of expiry and of the JWKS refetch interval).
    public var now: @Sendable () -> Date = { Date() }
    /// The key of HMAC-signed tokens; `nil` for a public client, which refuses them.
    private let clientSecret: String?
    /// Whether the token endpoint is https, where an unsigned token may come from.
    private let tokenEndpointIsHTTPS: Bool
    private let keySet: JWKSCache?

    /// A validator for `configuration`'s issuer and key set.
    /// - Parameters:
    ///   - configuration: the provider: its issuer, `jwks_uri` and token endpoint.
    ///   - clientID: this client's ID, which must be among the audiences.
    ///   - clientSecret: the client secret, the key of ID tokens signed with HMAC; `nil` for a public client.
    ///   - signing: the client's `id_token_signed_response_alg`, if it registered one.
    ///   - http: the HTTP client that fetches the key set.
    /// - Throws: ``OpenIDConnectError/missingEndpoint(_:)`` when the provider has no `jwks_uri`
    ///   and the client did not register HMAC or `none`.
    public init(configuration: ProviderConfiguration, clientID: String, clientSecret: String? = nil, signing: IDTokenSigning? = nil,
                http: any HTTPClient) throws(OpenIDConnectError) {
        let needsKeySet = switch signing {
        case .algorithm(let algorithm)?: !algorithm.isSymmetric
        case .unsigned?: false
        case nil: true
        }
        if needsKeySet, configuration.jwksURI == nil { throw .missingEndpoint("jwks_uri") }
        self.issuer = configuration.issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.signing = signing
        self.tokenEndpointIsHTTPS = configuration.tokenEndpoint.scheme?.lowercased() == "https"
        self.keySet = configuration.jwksURI.map { JWKSCache(url: $0, http: http) }
    }

    /// Starts fetching the provider's key set, so that validating the sign-in's token later does
    /// not wait for it (a failure is forgotten: validation fetches again).
    public func prefetchKeys() async {
        await keySet?.prefetch()
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
    ///   - source: where the token came from; only ``IDTokenSource/codeFlowTokenEndpoint`` may
    ///     give an unsigned one, to a client that registered `none`.
    public func validate(_ token: String, nonce: String?, accessToken: String? = nil, code: String? = nil,
                         authTime: AuthTimeRequirement? = nil, frontChannel: IDToken? = nil,
                         source: IDTokenSource = .other) async throws(IDTokenError) -> IDToken {
        let header = try JOSEHeader(token)
        let (claims, alg) = try await verifiedClaims(token, header: header, source: source)
        try checkClaims(claims, nonce: nonce)
        try authTime?.check(claims, now: now(), leeway: clockSkew)
        if let frontChannel {
            for (claim, expected) in [("iss", frontChannel.issuer), ("sub", frontChannel.subject)] {
                let actual = claims[claim]?.stringValue ?? ""
                guard actual == expected else { throw .hybridMismatch(claim: claim, frontChannel: expected, tokenEndpoint: actual) }
            }
        }
        if let accessToken {
            guard let atHash = claims["at_hash"]?.stringValue else { throw .missingAccessTokenHash }
            guard let alg, atHash == alg.halfHash(of: accessToken) else { throw .accessTokenHashMismatch }
        }
        if let code {
            guard let cHash = claims["c_hash"]?.stringValue else { throw .missingCodeHash }
            guard let alg, cHash == alg.halfHash(of: code) else { throw .codeHashMismatch }
        }
        return IDToken(rawValue: token, claims: IDTokenClaims(claims))
    }

    /// The claims of `token` once its signature (or its lack of one) is accepted, and its algorithm (`nil`: unsigned).
    private func verifiedClaims(_ token: String, header: JOSEHeader,
                                source: IDTokenSource) async throws(IDTokenError) -> ([String: JSONValue], SignatureAlgorithm?) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        if header.alg == "none" {
            guard signing == .unsigned else { throw .unsupportedAlgorithm(header.alg) }
            guard source == .codeFlowTokenEndpoint else { throw .unsignedRefused(reason: "from the front channel or another grant") }
            guard tokenEndpointIsHTTPS else { throw .unsignedRefused(reason: "over plain http") }
            guard parts[2].isEmpty else { throw .malformed("an unsigned token has a signature") }
            return (try Self.payload(parts[1]), nil)
        }
        guard let alg = SignatureAlgorithm(rawValue: header.alg) else { throw .unsupportedAlgorithm(header.alg) }
        if let signing, signing != .algorithm(alg) { throw .algorithmNotRegistered(alg: alg.rawValue, registered: signing.rawValue) }
        guard alg.isSymmetric else { return (try await verifiedWithKeySet(token, header: header, alg: alg), alg) }
        guard let clientSecret else { throw .unsupportedAlgorithm(header.alg) }
        if let (bytes, needed) = ClientSecretHMAC.shortfall(of: clientSecret, for: alg) {
            throw .clientSecretTooShort(alg: alg.rawValue, bytes: bytes, needed: needed)
        }
        guard let signature = Base64URL.decode(parts[2]),
              ClientSecretHMAC.verify(signature, of: Data((parts[0] + "." + parts[1]).utf8), alg: alg, secret: clientSecret) else { throw .invalidSignature }
        return (try Self.payload(parts[1]), alg)
    }

    /// The claims of a token signed with `alg`, once the key ``JSONWebKey`` chose verifies it.
    private func verifiedWithKeySet(_ token: String, header: JOSEHeader, alg: SignatureAlgorithm) async throws(IDTokenError) -> [String: JSONValue] {
        guard let keySet, let jwkAlgorithm = alg.jwkAlgorithm else { throw .unsupportedAlgorithm(alg.rawValue) }
        var key = try await keySet.key(kid: header.kid, alg: alg, now: now()).jwk
        key.algorithm = jwkAlgorithm
        key.keyIdentifier = JWKIdentifier(string: header.kid ?? "id-token-key")
        do {
            let keys = JWTKeyCollection()
            try await keys.add(jwk: key)
            return try await keys.verify(token, as: JWTClaimSet.self).claims
        } catch {
            throw .invalidSignature
        }
    }

    /// The claims in a token's base64url payload.
    private static func payload(_ part: Substring) throws(IDTokenError) -> [String: JSONValue] {
        guard let data = Base64URL.decode(part), let claims = try? JSONDecoder().decode([String: JSONValue].self, from: data) else {
            throw .malformed("the payload is not base64url JSON")
        }
        return claims
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
