import Foundation
internal import JWTKit
import OpenIDConnect

/// The `private_key_jwt` check (RFC 7523 §3): a client assertion's signature against the client's
/// registered key, then `iss` = `sub` = the client, `aud` one of the provider's own URLs, `exp`
/// in the future (and no more than ``longestAssertionLifetime`` away), and a `jti` never seen before.
extension OpenIDProvider {
    /// The longest lifetime of a client assertion accepted, in seconds: an assertion is for one
    /// request, not a password.
    static let longestAssertionLifetime: Double = 600

    func checkClientAssertion(_ assertion: String, client: String, jwk: JSONValue, audiences: Set<String>) async -> Bool {
        guard let header = try? JOSEHeader(assertion),
              ["ES256", "RS256", "PS256"].contains(header.alg), let algorithm = JWK.Algorithm(rawValue: header.alg),
              var key = try? JWK(json: jwk.description) else { return false }
        key.algorithm = algorithm
        key.keyIdentifier = JWKIdentifier(string: header.kid ?? "client-key")  // jwt-kit files keys by kid
        let keys = JWTKeyCollection()
        guard (try? await keys.add(jwk: key)) != nil,
              let claims = try? await keys.verify(assertion, as: JWTClaimSet.self).claims else { return false }
        let now = Date()
        let audience: [String] = switch claims["aud"] {
        case .string(let one)?: [one]
        case .array(let many)?: many.compactMap(\.stringValue)
        default: []
        }
        guard claims["iss"]?.stringValue == client, claims["sub"]?.stringValue == client,
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
}
