import Crypto
import Foundation

/// HMAC for JWS (RFC 7518 §3.2) keyed with the octets of the client secret's UTF-8 (OpenID Connect
/// Core §10.1, §9): ID tokens signed HS256/384/512 and `client_secret_jwt` assertions. swift-crypto
/// computes it; a secret shorter than the hash is refused by the callers first (RFC 7518 §3.2
/// forbids it as a key), never asserted on.
package enum ClientSecretHMAC {
    /// How many bytes `secret` has as a key, and how many `alg` needs; `nil` when it has enough
    /// (or `alg` is not HMAC).
    package static func shortfall(of secret: String, for alg: SignatureAlgorithm) -> (bytes: Int, needed: Int)? {
        let bytes = secret.utf8.count
        return alg.isSymmetric && bytes < alg.digestLength ? (bytes, alg.digestLength) : nil
    }

    /// The HMAC of `input` with `secret` as `alg` names it (HS256, HS384 or HS512).
    package static func code(for input: Data, alg: SignatureAlgorithm, secret: String) -> Data {
        let key = SymmetricKey(data: Data(secret.utf8))
        return switch alg {
        case .hs384: Data(HMAC<SHA384>.authenticationCode(for: input, using: key))
        case .hs512: Data(HMAC<SHA512>.authenticationCode(for: input, using: key))
        default: Data(HMAC<SHA256>.authenticationCode(for: input, using: key))
        }
    }

    /// Whether `signature` is `input`'s HMAC with `secret` (compared in constant time).
    package static func verify(_ signature: Data, of input: Data, alg: SignatureAlgorithm, secret: String) -> Bool {
        let key = SymmetricKey(data: Data(secret.utf8))
        return switch alg {
        case .hs384: HMAC<SHA384>.isValidAuthenticationCode(signature, authenticating: input, using: key)
        case .hs512: HMAC<SHA512>.isValidAuthenticationCode(signature, authenticating: input, using: key)
        default: HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: input, using: key)
        }
    }
}
