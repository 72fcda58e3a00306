import Foundation
internal import JWTKit
import OpenIDConnect
import WebAuthSupport

/// Which client a request to a back-channel endpoint authenticates as (RFC 6749 §2.3, OpenID
/// Connect Core §9): a confidential client by HTTP Basic, `client_secret` in the body or a
/// `client_secret_jwt` assertion, a `private_key_jwt` one by its signed assertion, a public one by
/// `client_id` alone; a client registered for one method
/// (``DevProviderConfiguration/Client/tokenEndpointAuthMethod``) by that one only.
///
/// A client assertion (RFC 7523 §3) is checked by its signature against the client's registered
/// key (`private_key_jwt`) or, for a client registered for `client_secret_jwt`, an HS256 HMAC with
/// its secret; then `iss` = `sub` = the client, `aud` one of the provider's own URLs, `exp` in the
/// future (and no more than ``longestAssertionLifetime`` away), and a `jti` never seen before.
final class ClientAuthenticator: Sendable {
    /// The longest lifetime of a client assertion accepted, in seconds: an assertion is for one
    /// request, not a password.
    static let longestAssertionLifetime: Double = 600

    private let context: ProviderContext
    private let clients: ClientRegistry
    /// The `jti`s of the client assertions accepted so far, with their expiry: each is good once.
    /// Not a `Mutex`: see ``LockedState`` (server threads).
    private let assertionIDs = LockedState<[String: Date]>([:])

    init(context: ProviderContext, clients: ClientRegistry) {
        self.context = context
        self.clients = clients
    }

    /// The client `request` (whose form body is `form`) authenticates as, if any; an assertion's
    /// `aud` must name one of `audiences` (by default the issuer and its token endpoint).
    func clientID(of request: LocalHTTPRequest, form: [String: String], audiences: Set<String>? = nil) async -> String? {
        var clientID = form["client_id"]
        var secret = form["client_secret"]
        var method = secret == nil ? "none" : "client_secret_post"
        if let basic = request.header("Authorization"), basic.hasPrefix("Basic "),
           let decoded = Data(base64Encoded: String(basic.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
           let colon = decoded.firstIndex(of: ":") {
            let formDecode = { (part: Substring) in ProviderForm.fields("v=" + part)["v"] }
            clientID = formDecode(decoded[..<colon])
            secret = formDecode(decoded[decoded.index(after: colon)...])
            method = "client_secret_basic"
        }
        let assertion = form["client_assertion_type"] == ClientAssertion.type ? form["client_assertion"] : nil
        if let assertion { method = (try? JOSEHeader(assertion))?.alg == "HS256" ? "client_secret_jwt" : "private_key_jwt" }
        guard let client = clients.client(clientID), !clients.secretExpired(client.clientID) else { return nil }
        if let registered = client.tokenEndpointAuthMethod, registered != method { return nil }
        let issuer = context.issuer
        let allowed = audiences ?? [issuer, issuer + "/token"]
        if method == "client_secret_jwt" {
            guard client.tokenEndpointAuthMethod == method, let assertion,
                  await checkAssertion(assertion, client: client, audiences: allowed) else { return nil }
            return client.clientID
        }
        if let expected = client.clientSecret, secret != expected { return nil }
        if client.jwk != nil {
            guard let assertion, await checkAssertion(assertion, client: client, audiences: allowed) else { return nil }
        }
        return client.clientID
    }

    private func checkAssertion(_ assertion: String, client: DevProviderConfiguration.Client, audiences: Set<String>) async -> Bool {
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
        return assertionIDs.withLock { seen in
            seen = seen.filter { $0.value > now }
            guard seen[jti] == nil else { return false }  // replayed
            seen[jti] = Date(timeIntervalSince1970: exp)
            return true
        }
    }

    /// The claims of an assertion whose signature `client`'s key or secret verifies; `nil` for any other.
    private func verifiedClaims(_ assertion: String, alg: String, kid: String?,
                                client: DevProviderConfiguration.Client) async -> [String: JSONValue]? {
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
