import Foundation
internal import JWTKit

/// One public key of a provider's JWKS that this client understands (RFC 7517 §4): RSA, EC on
/// P-256, P-384 or P-521, or OKP on Ed25519, with what its `use`, `key_ops` and `alg` allow.
/// The set is read here, not by jwt-kit: a key it cannot read (an encryption `alg` such as
/// `RSA-OAEP-256`, a symmetric `oct` key, an unknown `kty` or `crv`) is skipped (§5), and jwt-kit
/// is handed only the public parameters of the key chosen.
struct JSONWebKey: Sendable {
    /// `kid`, if any.
    let keyID: String?
    /// `kty`: `RSA`, `EC` or `OKP`.
    let keyType: String
    /// `crv` of an EC or OKP key.
    let curve: String?
    /// `use`, if any: `sig` or `enc` (§4.2).
    let use: String?
    /// `key_ops`, if any (§4.3).
    let operations: [String]?
    /// `alg`, if any (§4.4).
    let algorithm: String?
    /// The key's public parameters, as jwt-kit reads them.
    let jwk: JWK

    /// The keys of a JWKS document (`{"keys": [...]}`) that this client understands; `nil` when
    /// `data` is not such a document.
    static func set(_ data: Data) -> [JSONWebKey]? {
        guard let document = try? JSONDecoder().decode(JSONValue.self, from: data), case .array(let keys)? = document["keys"] else {
            return nil
        }
        return keys.compactMap(JSONWebKey.init)
    }

    /// The key `value` describes, or `nil` for one this client does not understand.
    init?(_ value: JSONValue) {
        guard case .object(let members) = value, let keyType = members["kty"]?.stringValue else { return nil }
        // A member that is there must have its type (RFC 7517 §4): a key that breaks that is not understood.
        func text(_ name: String) -> String?? {
            guard let member = members[name] else { return .some(nil) }
            return member.stringValue.map { .some($0) }
        }
        guard let keyID = text("kid"), let use = text("use"), let algorithm = text("alg") else { return nil }
        var operations: [String]?
        if let listed = members["key_ops"] {
            guard case .array(let items) = listed else { return nil }
            operations = items.compactMap(\.stringValue)
            guard operations?.count == items.count else { return nil }
        }
        let parameters: [String]
        switch keyType {
        case "RSA": parameters = ["n", "e"]
        case "EC": parameters = ["crv", "x", "y"]
        case "OKP": parameters = ["crv", "x"]
        default: return nil
        }
        var minimal: [String: JSONValue] = ["kty": .string(keyType)]
        for name in parameters {
            guard let parameter = members[name]?.stringValue else { return nil }
            minimal[name] = .string(parameter)
        }
        let curve = minimal["crv"]?.stringValue
        guard curve == nil || ["P-256", "P-384", "P-521", "Ed25519"].contains(curve!),
              let jwk = try? JWK(json: JSONValue.object(minimal).description) else { return nil }
        (self.keyID, self.keyType, self.curve, self.use, self.operations, self.algorithm, self.jwk) =
            (keyID, keyType, curve, use, operations, algorithm, jwk)
    }

    /// Whether this key may verify a signature made with `alg`: its type (and curve) fit, its
    /// `use` is absent or `sig`, its `key_ops` are absent or hold `verify`, its `alg` is absent or `alg`.
    func mayVerify(_ alg: SignatureAlgorithm) -> Bool {
        guard let fitting = alg.keyType, fitting.kty == keyType, fitting.crv == curve else { return false }
        return (use == nil || use == "sig") && (operations == nil || operations!.contains("verify"))
            && (algorithm == nil || algorithm == alg.rawValue)
    }

    /// The key for a token with `kid` and `alg` among `keys` (OpenID Connect Core §10.1): of the
    /// keys that may verify `alg`, the one with that `kid`, or without a `kid` the only one.
    static func select(kid: String?, alg: SignatureAlgorithm, from keys: [JSONWebKey]) -> Selection {
        let fitting = keys.filter { $0.mayVerify(alg) }
        guard let kid else {
            return fitting.count == 1 ? .found(fitting[0]) : fitting.isEmpty ? .absent : .ambiguous(fitting.count)
        }
        let named = fitting.filter { $0.keyID == kid }
        if named.count == 1 { return .found(named[0]) }
        if named.count > 1 { return .ambiguous(named.count) }
        return keys.contains { $0.keyID == kid } ? .unfit : .absent
    }

    /// What ``select(kid:alg:from:)`` found.
    enum Selection {
        /// The one key.
        case found(JSONWebKey)
        /// No key fits (none has the `kid`, or without a `kid` none may verify the algorithm).
        case absent
        /// Keys have the `kid`, but none may verify the algorithm.
        case unfit
        /// This many keys fit, and nothing tells them apart.
        case ambiguous(Int)
    }
}
