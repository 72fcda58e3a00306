import Foundation

/// A `private_key_jwt` client assertion (RFC 7523 §2.2, §3; OpenID Connect Core §9): a JWT the
/// client signs for one request, with `iss` and `sub` its client ID, `aud` the endpoint it goes to,
/// a random `jti` and a short lifetime.
package enum ClientAssertion {
    /// The `client_assertion_type` of a JWT assertion.
    package static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// How long an assertion is valid, in seconds.
    static let lifetime: Double = 60

    /// A fresh assertion for `clientID`, for `audience`, signed with `key` (JWS compact serialisation).
    package static func make(clientID: String, audience: String, key: ClientKey, now: Date = Date()) async throws(ClientKeyError) -> String {
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        let claims: JSONValue = .object([
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience),
            "jti": .string(Base64URL.random(bytes: 16)), "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime),
        ])
        let keyID = key.keyID
        let (input, signature) = try await key.sign { algorithm in
            var header: [String: JSONValue] = ["alg": .string(algorithm.rawValue), "typ": .string("JWT")]
            if let keyID { header["kid"] = .string(keyID) }
            return Data((Base64URL.encode(Data(JSONValue.object(header).description.utf8)) + "."
                + Base64URL.encode(Data(claims.description.utf8))).utf8)
        }
        return String(decoding: input, as: UTF8.self) + "." + Base64URL.encode(signature)
    }
}
