import Crypto
import CryptoExtras
import Foundation
import OpenIDConnect

/// Signs test ID tokens (test code only: the library verifies with jwt-kit) and describes its
/// public keys as a JWKS.
struct TestSigner: Sendable {
    let rsa = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    let ec = P256.Signing.PrivateKey()
    let rsaKID: String
    let ecKID: String

    init(generation: Int = 1) {
        rsaKID = "rsa-\(generation)"
        ecKID = "ec-\(generation)"
    }

    /// The public keys as a JWKS document.
    var jwks: JSONValue {
        let primitives = try! rsa.publicKey.getKeyPrimitives()
        let point = ec.publicKey.rawRepresentation
        return .object(["keys": .array([
            .object(["kty": .string("RSA"), "kid": .string(rsaKID), "use": .string("sig"),
                     "n": .string(b64url(primitives.modulus)), "e": .string(b64url(primitives.publicExponent))]),
            .object(["kty": .string("EC"), "kid": .string(ecKID), "use": .string("sig"), "crv": .string("P-256"),
                     "x": .string(b64url(point.prefix(32))), "y": .string(b64url(point.suffix(32)))]),
        ])])
    }

    /// A compact JWT with `claims`, signed with `alg` ("RS256", "PS256", "ES256"; "none" for no
    /// signature; "HS256" keyed with the RSA public key, as an attacker would).
    func sign(_ claims: [String: JSONValue], alg: String = "RS256", kid: String? = nil, header extra: [String: JSONValue] = [:]) -> String {
        var header: [String: JSONValue] = ["alg": .string(alg), "typ": .string("JWT")]
        if let kid = kid ?? defaultKID(alg) { header["kid"] = .string(kid) }
        header.merge(extra) { $1 }
        let input = b64url(Data(JSONValue.object(header).description.utf8)) + "." + b64url(Data(JSONValue.object(claims).description.utf8))
        let data = Data(input.utf8)
        let signature: Data
        switch alg {
        case "RS256": signature = try! rsa.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5).rawRepresentation
        case "PS256": signature = try! rsa.signature(for: SHA256.hash(data: data), padding: .PSS).rawRepresentation
        case "ES256": signature = try! ec.signature(for: data).rawRepresentation
        case "HS256":
            let key = SymmetricKey(data: Data(rsa.publicKey.pemRepresentation.utf8))
            signature = Data(HMAC<SHA256>.authenticationCode(for: data, using: key))
        default: signature = Data()
        }
        return input + "." + b64url(signature)
    }

    private func defaultKID(_ alg: String) -> String? {
        alg.hasPrefix("ES") ? ecKID : rsaKID
    }
}

func b64url(_ data: some DataProtocol) -> String {
    Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}

/// The at_hash / c_hash of `value` for a 256-bit algorithm.
func halfSHA256(_ value: String) -> String { b64url(Array(SHA256.hash(data: Data(value.utf8))).prefix(16)) }
