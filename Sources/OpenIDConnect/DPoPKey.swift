import Crypto
import Foundation

/// The key of a DPoP-bound sign-in (RFC 9449): a P-256 key made for one sign-in, kept with it
/// (``AuthState/dpopKey``) so that refreshes and resource requests prove possession of the same
/// key, and never shown: `description` gives only its thumbprint. It signs a fresh proof JWT for
/// each request.
public struct DPoPKey: Sendable, Hashable, Codable, CustomStringConvertible {
    private let key: P256.Signing.PrivateKey

    /// A new key.
    public init() {
        key = P256.Signing.PrivateKey()
    }

    /// Keys are equal when their private parts are.
    public static func == (lhs: DPoPKey, rhs: DPoPKey) -> Bool { lhs.key.rawRepresentation == rhs.key.rawRepresentation }

    /// Hashes the thumbprint (public): equal keys have equal thumbprints.
    public func hash(into hasher: inout Hasher) { hasher.combine(thumbprint) }

    /// The public key as a JWK (`kty`, `crv`, `x`, `y`), as sent in each proof's header.
    public var publicJWK: [String: String] {
        let point = key.publicKey.rawRepresentation
        return ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(point.prefix(32)), "y": Base64URL.encode(point.suffix(32))]
    }

    /// The JWK SHA-256 thumbprint (RFC 7638) the provider binds tokens to (`cnf.jkt`).
    public var thumbprint: String { Self.thumbprint(of: publicJWK) }

    /// Only the thumbprint.
    public var description: String { "DPoPKey(jkt: \(thumbprint))" }

    /// A proof for one request (RFC 9449 §4.2): `htm` and `htu` (without query and fragment),
    /// `iat`, a random `jti`, `ath` when the request carries `accessToken`, and the server's
    /// `nonce` when it asked for one.
    /// - Throws: ``DPoPError/signingFailed(_:)`` if the system's crypto fails.
    public func proof(method: String, url: URL, accessToken: String? = nil, nonce: String? = nil,
                      now: Date = Date()) throws(DPoPError) -> String {
        var target = URLComponents(url: url, resolvingAgainstBaseURL: false)
        target?.query = nil
        target?.fragment = nil
        var claims: [String: JSONValue] = [
            "jti": .string(Base64URL.random(bytes: 16)), "htm": .string(method),
            "htu": .string(target?.url?.absoluteString ?? url.absoluteString), "iat": .number(now.timeIntervalSince1970.rounded(.down)),
        ]
        if let accessToken { claims["ath"] = .string(Self.accessTokenHash(accessToken)) }
        if let nonce { claims["nonce"] = .string(nonce) }
        let header: JSONValue = .object(["typ": .string("dpop+jwt"), "alg": .string("ES256"),
                                         "jwk": .object(publicJWK.mapValues { .string($0) })])
        let input = Base64URL.encode(Data(header.description.utf8)) + "." + Base64URL.encode(Data(JSONValue.object(claims).description.utf8))
        // The signature of a JWS ES256 is r and s, 32 bytes each: CryptoKit's raw representation.
        do { return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation) } catch {
            throw .signingFailed(String(describing: error))
        }
    }

    /// The RFC 7638 thumbprint of an EC or RSA public JWK: SHA-256 of its required members in order.
    package static func thumbprint(of jwk: [String: String]) -> String {
        let members = jwk["kty"] == "RSA" ? ["e", "kty", "n"] : ["crv", "kty", "x", "y"]
        let json = "{" + members.map { "\"\($0)\":\"\(jwk[$0] ?? "")\"" }.joined(separator: ",") + "}"
        return Base64URL.encode(SHA256.hash(data: Data(json.utf8)))
    }

    /// `ath`: base64url of the SHA-256 of the access token.
    package static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8)))
    }

    enum CodingKeys: String, CodingKey { case privateKey = "d" }

    /// Decodes a saved key; bytes that are not a P-256 private key are refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .privateKey)
        guard let bytes = Base64URL.decode(text), let key = try? P256.Signing.PrivateKey(rawRepresentation: bytes) else {
            throw DecodingError.dataCorruptedError(forKey: .privateKey, in: container, debugDescription: "not a P-256 private key")
        }
        self.key = key
    }

    /// Encodes the key (base64url), for the saved sign-in only.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Base64URL.encode(key.rawRepresentation), forKey: .privateKey)
    }
}
