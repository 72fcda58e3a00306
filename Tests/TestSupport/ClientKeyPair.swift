import Crypto
import CryptoExtras
import Foundation
import OpenIDConnect

/// A `private_key_jwt` client's key pair for tests: the private key in a PEM file (what the
/// client is given), the public key as a JWK (what the provider registers).
public struct ClientKeyPair: Sendable {
    /// The kind of key.
    public enum Kind: String, Sendable, CaseIterable {
        /// P-256 (ES256).
        case ec
        /// RSA, 2048 bits (RS256, PS256).
        case rsa
    }

    /// The PEM file's path.
    public let path: String
    /// The public key as a JWK.
    public let jwk: JSONValue
    /// The PEM text (for tests that look for it where it must not be).
    public let pem: String

    /// A new key pair of `kind`, its private key written to a new file in `directory`.
    public init(_ kind: Kind, in directory: URL? = nil) throws {
        let encode = { (bytes: Data) in
            bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        switch kind {
        case .ec:
            let key = P256.Signing.PrivateKey()
            let point = key.publicKey.rawRepresentation
            pem = key.pemRepresentation
            jwk = .object(["kty": .string("EC"), "crv": .string("P-256"), "x": .string(encode(point.prefix(32))),
                           "y": .string(encode(point.suffix(32)))])
        case .rsa:
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let primitives = try key.publicKey.getKeyPrimitives()
            pem = key.pemRepresentation
            jwk = .object(["kty": .string("RSA"), "n": .string(encode(primitives.modulus)), "e": .string(encode(primitives.publicExponent))])
        }
        let url = directory?.appendingPathComponent("client-key-\(UUID().uuidString).pem") ?? TemporaryFiles.path("client-key", fileExtension: "pem")
        try Data(pem.utf8).write(to: url)
        path = url.path
    }
}
