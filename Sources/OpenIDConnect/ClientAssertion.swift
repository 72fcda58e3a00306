import Foundation
internal import JWTKit

/// A `private_key_jwt` client assertion (RFC 7523 §2.2, §3; OpenID Connect Core §9): a JWT the
/// client signs for one request, with `iss` and `sub` its client ID, `aud` the endpoint it goes to,
/// a random `jti` and a short lifetime.
package enum ClientAssertion {
    /// The `client_assertion_type` of a JWT assertion.
    package static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// How long an assertion is valid, in seconds.
    static let lifetime: Double = 60

    /// A fresh assertion for `clientID`, for `audience`, signed with `key`.
    package static func make(clientID: String, audience: String, key: ClientKey, now: Date = Date()) async throws(ClientKeyError) -> String {
        let (keys, algorithm) = try await key.signer()
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        let claims: [String: JSONValue] = [
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(audience),
            "jti": .string(Base64URL.random(bytes: 16)), "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime),
        ]
        var header = JWTHeader()
        header.alg = algorithm.rawValue
        header.typ = "JWT"
        do {
            return try await keys.sign(JWTClaimSet(claims: claims), kid: key.keyID.map { JWKIdentifier(string: $0) }, header: header)
        } catch {
            switch key.source {
            case .pemFile(let path): throw .unsupportedKey(path: path)
            }
        }
    }
}
