import Crypto
internal import JWTKit

/// The JWS algorithms an ID token may be signed with here: asymmetric ones only. `none` and the
/// HMAC family are refused (an HMAC "signed" with the provider's public key is the classic
/// algorithm-confusion attack, and this client has no shared secret to check one with).
enum SignatureAlgorithm: String, CaseIterable, Sendable {
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
    case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512"
    case es256 = "ES256", es384 = "ES384", es512 = "ES512"
    case eddsa = "EdDSA"

    /// The JWK key type that can verify it.
    var keyType: JWK.KeyType {
        switch self {
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: .rsa
        case .es256, .es384, .es512: .ecdsa
        case .eddsa: .octetKeyPair
        }
    }

    /// jwt-kit's name for it.
    var jwkAlgorithm: JWK.Algorithm? { JWK.Algorithm(rawValue: rawValue) }

    /// The left half of the algorithm's hash of `value`, base64url: `at_hash` and `c_hash`
    /// (OpenID Connect Core §3.1.3.6, §3.3.2.11).
    func halfHash(of value: String) -> String {
        let bytes = Array(value.utf8)
        let digest: [UInt8] = switch self {
        case .rs256, .ps256, .es256: Array(SHA256.hash(data: bytes))
        case .rs384, .ps384, .es384: Array(SHA384.hash(data: bytes))
        case .rs512, .ps512, .es512, .eddsa: Array(SHA512.hash(data: bytes))
        }
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }
}
