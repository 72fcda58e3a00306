import Crypto
import Foundation

/// A credential's public key as a COSE_Key (RFC 9052 §7): an EC2 P-256 key for ES256 or an OKP
/// Ed25519 key for EdDSA. It is what authenticator data carries at registration, what a relying
/// party keeps, and what checks an assertion's signature.
public enum COSEKey: Sendable, Hashable {
    /// A P-256 public key: its x and y coordinates (32 bytes each).
    case es256(x: Data, y: Data)
    /// An Ed25519 public key (32 bytes).
    case edDSA(Data)

    /// The algorithm the key signs with.
    public var algorithm: COSEAlgorithm {
        switch self {
        case .es256: .es256
        case .edDSA: .edDSA
        }
    }

    /// The COSE_Key map: `{1: kty, 3: alg, -1: crv, -2: x[, -3: y]}`.
    public var cbor: CBORValue {
        switch self {
        case .es256(let x, let y): .map([(1, 2), (3, .int(COSEAlgorithm.es256.rawValue)), (-1, 1), (-2, .bytes(x)), (-3, .bytes(y))])
        case .edDSA(let x): .map([(1, 1), (3, .int(COSEAlgorithm.edDSA.rawValue)), (-1, 6), (-2, .bytes(x))])
        }
    }

    /// The key a COSE_Key map holds.
    /// - Throws: ``WebAuthnFormatError/unsupportedKey(_:)`` for another type, curve or algorithm, or a malformed key.
    public init(cbor: CBORValue) throws(WebAuthnFormatError) {
        guard let kty = cbor[1]?.intValue, let alg = cbor[3]?.intValue, let crv = cbor[-1]?.intValue, let x = cbor[-2]?.bytesValue else {
            throw .unsupportedKey("a COSE key without kty, alg, crv and x")
        }
        switch (kty, alg, crv) {
        case (2, COSEAlgorithm.es256.rawValue, 1):
            guard let y = cbor[-3]?.bytesValue, x.count == 32, y.count == 32,
                  (try? P256.Signing.PublicKey(rawRepresentation: x + y)) != nil else {
                throw .unsupportedKey("an EC2 key that is not a point of P-256")
            }
            self = .es256(x: x, y: y)
        case (1, COSEAlgorithm.edDSA.rawValue, 6):
            guard x.count == 32 else { throw .unsupportedKey("an Ed25519 key that is not 32 bytes") }
            self = .edDSA(x)
        default:
            throw .unsupportedKey("kty \(kty), alg \(alg), crv \(crv): only ES256 (P-256) and EdDSA (Ed25519)")
        }
    }

    /// The key as a DER SubjectPublicKeyInfo, what `AuthenticatorAttestationResponse.getPublicKey()` returns.
    public var subjectPublicKeyInfo: Data {
        switch self {
        case .es256(let x, let y):
            // swift-crypto writes P-256 SPKI itself; the point was checked when the key was made.
            (try? P256.Signing.PublicKey(rawRepresentation: x + y).derRepresentation) ?? Data()
        case .edDSA(let x):
            // SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING { 0 unused bits, key } } (RFC 8410 §4)
            Data([0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]) + x
        }
    }

    /// Whether `signature` (DER for ES256, 64 raw bytes for EdDSA) signs `message` with this key.
    public func verifies(_ signature: Data, of message: Data) -> Bool {
        switch self {
        case .es256(let x, let y):
            guard let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                  let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case .edDSA(let x):
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else { return false }
            return key.isValidSignature(signature, for: message)
        }
    }
}
