import Crypto
internal import JWTKit

/// The JWS algorithms an ID token may be signed with here (RFC 7518 §3): the asymmetric ones,
/// verified with a key of the provider's JWKS, and the HMAC family, keyed with the client secret's
/// octets (OpenID Connect Core §10.1) and so only for a client that has one. `none` is not among
/// them: an unsigned ID token is ``IDTokenSigning/unsigned``, accepted only where Core §3.1.3.7 allows.
public enum SignatureAlgorithm: String, CaseIterable, Sendable, Hashable, Codable {
    /// RSASSA-PKCS1-v1_5 with SHA-256, SHA-384, SHA-512.
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
    /// RSASSA-PSS with SHA-256, SHA-384, SHA-512.
    case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512"
    /// ECDSA with P-256, P-384, P-521.
    case es256 = "ES256", es384 = "ES384", es512 = "ES512"
    /// EdDSA with Ed25519.
    case eddsa = "EdDSA"
    /// HMAC with SHA-256, SHA-384, SHA-512, keyed with the client secret.
    case hs256 = "HS256", hs384 = "HS384", hs512 = "HS512"

    /// Whether the key is the client secret (HMAC) rather than a key of the provider's JWKS.
    public var isSymmetric: Bool { [.hs256, .hs384, .hs512].contains(self) }

    /// The JWK `kty` (and for EC and OKP the `crv`) of the keys that can verify it; `nil` for HMAC.
    var keyType: (kty: String, crv: String?)? {
        switch self {
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: ("RSA", nil)
        case .es256: ("EC", "P-256")
        case .es384: ("EC", "P-384")
        case .es512: ("EC", "P-521")
        case .eddsa: ("OKP", "Ed25519")
        case .hs256, .hs384, .hs512: nil
        }
    }

    /// jwt-kit's name for it (asymmetric algorithms only: HMAC is checked with swift-crypto).
    var jwkAlgorithm: JWK.Algorithm? { isSymmetric ? nil : JWK.Algorithm(rawValue: rawValue) }

    /// The SHA-2 digest this algorithm uses, in bytes: also the shortest HMAC key RFC 7518 §3.2 allows.
    var digestLength: Int {
        switch self {
        case .rs256, .ps256, .es256, .hs256: 32
        case .rs384, .ps384, .es384, .hs384: 48
        case .rs512, .ps512, .es512, .hs512, .eddsa: 64
        }
    }

    /// The left half of the algorithm's hash of `value`, base64url: `at_hash` and `c_hash`
    /// (OpenID Connect Core §3.1.3.6, §3.3.2.11).
    func halfHash(of value: String) -> String {
        let bytes = Array(value.utf8)
        let digest: [UInt8] = switch digestLength {
        case 32: Array(SHA256.hash(data: bytes))
        case 48: Array(SHA384.hash(data: bytes))
        default: Array(SHA512.hash(data: bytes))
        }
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }
}
