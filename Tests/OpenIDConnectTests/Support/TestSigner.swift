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
    var jwks: JSONValue { Self.set([rsaJWK(), ecJWK()]) }

    /// The RSA public key as a JWK with its `kid` and `use: sig`, changed by `members` (`nil` removes one).
    func rsaJWK(_ members: [String: JSONValue?] = [:]) -> JSONValue {
        let primitives = try! rsa.publicKey.getKeyPrimitives()
        return Self.jwk(["kty": .string("RSA"), "kid": .string(rsaKID), "use": .string("sig"),
                         "n": .string(b64url(primitives.modulus)), "e": .string(b64url(primitives.publicExponent))], members)
    }

    /// The P-256 public key as a JWK with its `kid` and `use: sig`, changed by `members` (`nil` removes one).
    func ecJWK(_ members: [String: JSONValue?] = [:]) -> JSONValue {
        let point = ec.publicKey.rawRepresentation
        return Self.jwk(["kty": .string("EC"), "kid": .string(ecKID), "use": .string("sig"), "crv": .string("P-256"),
                         "x": .string(b64url(point.prefix(32))), "y": .string(b64url(point.suffix(32)))], members)
    }

    /// A JWKS document of `keys`.
    static func set(_ keys: [JSONValue]) -> JSONValue { .object(["keys": .array(keys)]) }

    private static func jwk(_ base: [String: JSONValue], _ members: [String: JSONValue?]) -> JSONValue {
        var key = base
        for (name, value) in members { key[name] = value }
        return .object(key)
    }

    /// A compact JWT with `claims`, signed with `alg` ("RS256", "PS256", "ES256"; "none" for no
    /// signature; "HS256", "HS384", "HS512" keyed with `secret`, else with the RSA public key, as an
    /// attacker would). `withoutKeyID` leaves `kid` out of the header.
    func sign(_ claims: [String: JSONValue], alg: String = "RS256", kid: String? = nil, withoutKeyID: Bool = false, secret: String? = nil,
              header extra: [String: JSONValue] = [:]) -> String {
        var header: [String: JSONValue] = ["alg": .string(alg), "typ": .string("JWT")]
        if !withoutKeyID, let kid = kid ?? defaultKID(alg) { header["kid"] = .string(kid) }
        header.merge(extra) { $1 }
        let input = b64url(Data(JSONValue.object(header).description.utf8)) + "." + b64url(Data(JSONValue.object(claims).description.utf8))
        let data = Data(input.utf8)
        let signature: Data
        switch alg {
        case "RS256": signature = try! rsa.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5).rawRepresentation
        case "PS256": signature = try! rsa.signature(for: SHA256.hash(data: data), padding: .PSS).rawRepresentation
        case "ES256": signature = try! ec.signature(for: data).rawRepresentation
        case "HS256", "HS384", "HS512":
            let key = SymmetricKey(data: Data((secret ?? rsa.publicKey.pemRepresentation).utf8))
            signature = switch alg {
            case "HS384": Data(HMAC<SHA384>.authenticationCode(for: data, using: key))
            case "HS512": Data(HMAC<SHA512>.authenticationCode(for: data, using: key))
            default: Data(HMAC<SHA256>.authenticationCode(for: data, using: key))
            }
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
