import Foundation

/// A client assertion (RFC 7523 §2.2, §3; OpenID Connect Core §9): a JWT the client signs for one
/// request, with `iss` and `sub` its client ID, `aud` the endpoint it goes to, a random `jti` and a
/// short lifetime. `private_key_jwt` signs it with the client's private key, `client_secret_jwt`
/// with HS256 keyed with the client secret.
package enum ClientAssertion {
    /// The `client_assertion_type` of a JWT assertion.
    package static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// How long an assertion is valid, in seconds.
    static let lifetime: Double = 60

    /// A fresh `private_key_jwt` assertion for `clientID`, for `audience`, signed with `key` (JWS compact serialisation).
    package static func make(clientID: String, audience: String, key: ClientKey, now: Date = Date()) async throws(ClientKeyError) -> String {
        let keyID = key.keyID
        let (input, signature) = try await key.sign { algorithm in
            signingInput(alg: algorithm.rawValue, keyID: keyID, clientID: clientID, audience: audience, now: now)
        }
        return String(decoding: input, as: UTF8.self) + "." + Base64URL.encode(signature)
    }

    /// A fresh `client_secret_jwt` assertion for `clientID`, for `audience`: HS256 keyed with the
    /// octets of `secret`.
    /// - Throws: ``OpenIDConnectError/clientSecretTooShort(alg:bytes:needed:)`` for a secret shorter
    ///   than SHA-256's 32 bytes, which RFC 7518 §3.2 forbids as an HS256 key.
    package static func make(clientID: String, audience: String, secret: String, now: Date = Date()) throws(OpenIDConnectError) -> String {
        if let (bytes, needed) = ClientSecretHMAC.shortfall(of: secret, for: .hs256) {
            throw .clientSecretTooShort(alg: SignatureAlgorithm.hs256.rawValue, bytes: bytes, needed: needed)
        }
        let input = signingInput(alg: SignatureAlgorithm.hs256.rawValue, keyID: nil, clientID: clientID, audience: audience, now: now)
        return String(decoding: input, as: UTF8.self) + "." + Base64URL.encode(ClientSecretHMAC.code(for: input, alg: .hs256, secret: secret))
    }

    /// The header and claims of an assertion, base64url and joined: what is signed.
    private static func signingInput(alg: String, keyID: String?, clientID: String, audience: String, now: Date) -> Data {
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        let claims: JSONValue = .object([
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience),
            "jti": .string(Base64URL.random(bytes: 16)), "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime),
        ])
        var header: [String: JSONValue] = ["alg": .string(alg), "typ": .string("JWT")]
        if let keyID { header["kid"] = .string(keyID) }
        return Data((Base64URL.encode(Data(JSONValue.object(header).description.utf8)) + "."
            + Base64URL.encode(Data(claims.description.utf8))).utf8)
    }
}
