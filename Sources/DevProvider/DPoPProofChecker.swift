import Foundation
internal import JWTKit
import OpenIDConnect
import WebAuthSupport

/// DPoP (RFC 9449) on the provider's side: proofs are checked at the token and userinfo
/// endpoints (`typ`, ES256 with the P-256 key in the header, `htm`, `htu`, `iat`, a `jti` used
/// once, `ath` for the access token, the server's nonce when one is required); tokens issued
/// against a proof are `token_type` `DPoP` and bound to the key's thumbprint (`cnf.jkt`, kept with
/// the token, see ``TokenLedger``), and a bound token is accepted only with a proof of that key.
final class DPoPProofChecker: Sendable {
    /// What a request's `DPoP` header shows.
    enum DPoPCheck: Equatable {
        /// No proof.
        case absent
        /// A valid proof of the key with this thumbprint.
        case proven(jkt: String)
        /// A proof that is not valid, and why.
        case invalid(String)
        /// A proof without the nonce the provider requires: this one is to be used.
        case nonceRequired(String)
    }

    /// How far a proof's `iat` may be from now, in seconds.
    static let proofLeeway: Double = 60

    private let context: ProviderContext
    /// The proof `jti`s seen (with when they may be forgotten), and the nonce proofs must carry
    /// under ``ProviderFault/dpopNonce``. Not a `Mutex`: see ``LockedState`` (server threads).
    private let state = LockedState<(proofIDs: [String: Date], nonce: String)>(([:], ProviderForm.randomToken()))

    init(context: ProviderContext) {
        self.context = context
    }

    /// Checks the `DPoP` header of `request`, a `method` request to `url`; `accessToken` is the
    /// token it presents, whose hash (`ath`) the proof must carry.
    func check(_ request: LocalHTTPRequest, method: String, url: String, accessToken: String? = nil) async -> DPoPCheck {
        guard let proof = request.header("DPoP") else { return .absent }
        guard let headerPart = proof.split(separator: ".").first,
              let header = Self.base64URLJSON(headerPart), header["typ"] == .string("dpop+jwt"), header["alg"] == .string("ES256"),
              case .object(let members)? = header["jwk"], members["d"] == nil,
              var key = try? JWK(json: JSONValue.object(members).description) else {
            return .invalid("the proof's header is not typ dpop+jwt, alg ES256 with a public jwk")
        }
        key.algorithm = .es256
        key.keyIdentifier = JWKIdentifier(string: "dpop-proof")  // jwt-kit files keys by kid; a proof has none
        let keys = JWTKeyCollection()
        guard (try? await keys.add(jwk: key)) != nil, let claims = try? await keys.verify(proof, as: JWTClaimSet.self).claims else {
            return .invalid("the proof's signature does not verify with its jwk")
        }
        let now = Date().timeIntervalSince1970
        guard claims["htm"] == .string(method), claims["htu"] == .string(url) else { return .invalid("htm or htu is not this request") }
        guard let iat = claims["iat"]?.numberValue, abs(iat - now) <= Self.proofLeeway else { return .invalid("iat is not now") }
        if let accessToken, claims["ath"] != .string(DPoPKey.accessTokenHash(accessToken)) { return .invalid("ath is not this token's") }
        if context.has(.dpopNonceLoop) { return .nonceRequired(ProviderForm.randomToken()) }
        if context.has(.dpopNonce) {
            let expected = state.withLock { $0.nonce }
            guard claims["nonce"] == .string(expected) else { return .nonceRequired(expected) }
        }
        guard let jti = claims["jti"]?.stringValue else { return .invalid("the proof has no jti") }
        let fresh = state.withLock { state in
            state.proofIDs = state.proofIDs.filter { $0.value > Date() }
            guard state.proofIDs[jti] == nil else { return false }
            state.proofIDs[jti] = Date().addingTimeInterval(2 * Self.proofLeeway)
            return true
        }
        guard fresh else { return .invalid("the proof's jti was used before") }
        return .proven(jkt: DPoPKey.thumbprint(of: members.compactMapValues(\.stringValue)))
    }

    /// The token endpoint's answer to a proof that cannot be used (RFC 9449 §5, §8).
    static func tokenEndpointRefusal(_ check: DPoPCheck) -> LocalHTTPResponse? {
        switch check {
        case .absent, .proven: nil
        case .invalid(let reason): .oauthError("invalid_dpop_proof", reason)
        case .nonceRequired(let nonce):
            .json(.object(["error": .string("use_dpop_nonce"), "error_description": .string("use the server's DPoP nonce")]), status: 400,
                 headers: ["DPoP-Nonce": nonce])
        }
    }

    private static func base64URLJSON(_ part: Substring) -> JSONValue? {
        Base64URL.decode(part).flatMap { try? JSONValue(parsing: String(decoding: $0, as: UTF8.self)) }
    }
}
