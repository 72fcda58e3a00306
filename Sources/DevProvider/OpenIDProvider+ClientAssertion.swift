import Foundation
internal import JWTKit
import OpenIDConnect

/// The check of a client assertion (RFC 7523 §3, OpenID Connect Core §9): its signature against
/// the client's registered key (`private_key_jwt`) or, for a client registered for
/// `client_secret_jwt`, an HS256 HMAC with its secret; then `iss` = `sub` = the client, `aud` one
/// of the provider's own URLs, `exp` in the future (and no more than ``longestAssertionLifetime``
/// away), and a `jti` never seen before.
extension OpenIDProvider {
    /// The longest lifetime of a client assertion accepted, in seconds: an assertion is for one
    /// request, not a password.
    static let longestAssertionLifetime: Double = 600

    func checkClientAssertion(_ assertion: String, client: Client, audiences: Set<String>) async -> Bool {
        guard let header = try? JOSEHeader(assertion),
              let claims = await verifiedClaims(assertion, alg: header.alg, kid: header.kid, client: client) else { return false }
        let now = Date()
        let audience: [String] = switch claims["aud"] {
        case .string(let one)?: [one]
        case .array(let many)?: many.compactMap(\.stringValue)
        default: []
        }
        guard claims["iss"]?.stringValue == client.clientID, claims["sub"]?.stringValue == client.clientID,
              audience.contains(where: audiences.contains),
              let exp = claims["exp"]?.numberValue, exp > now.timeIntervalSince1970,
              exp <= now.timeIntervalSince1970 + Self.longestAssertionLifetime,
              let jti = claims["jti"]?.stringValue else { return false }
        return state.withLock { state in
            state.assertionIDs = state.assertionIDs.filter { $0.value > now }
            guard state.assertionIDs[jti] == nil else { return false }  // replayed
            state.assertionIDs[jti] = Date(timeIntervalSince1970: exp)
            return true
        }
    }

    /// The claims of an assertion whose signature `client`'s key or secret verifies; `nil` for any other.
    private func verifiedClaims(_ assertion: String, alg: String, kid: String?, client: Client) async -> [String: JSONValue]? {
        if alg == "HS256" {
            let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
            guard client.tokenEndpointAuthMethod == "client_secret_jwt", let secret = client.clientSecret,
                  ClientSecretHMAC.shortfall(of: secret, for: .hs256) == nil, let signature = Base64URL.decode(parts[2]),
                  ClientSecretHMAC.verify(signature, of: Data((parts[0] + "." + parts[1]).utf8), alg: .hs256, secret: secret),
                  let payload = Base64URL.decode(parts[1]) else { return nil }
            return try? JSONDecoder().decode([String: JSONValue].self, from: payload)
        }
        guard let jwk = client.jwk, ["ES256", "RS256", "PS256"].contains(alg), let algorithm = JWK.Algorithm(rawValue: alg),
              var key = try? JWK(json: jwk.description) else { return nil }
        key.algorithm = algorithm
        key.keyIdentifier = JWKIdentifier(string: kid ?? "client-key")  // jwt-kit files keys by kid
        let keys = JWTKeyCollection()
        guard (try? await keys.add(jwk: key)) != nil else { return nil }
        return try? await keys.verify(assertion, as: JWTClaimSet.self).claims
    }
}
