import Foundation
import JWTKit

/// A provider's JSON Web Key Set, fetched on first use and fetched once more when a token names
/// a key it does not have (the provider rotated its keys).
actor JWKSCache {
    private let url: URL
    private let http: any HTTPClient
    private var keys: [JWK]?

    init(url: URL, http: any HTTPClient) {
        self.url = url
        self.http = http
    }

    /// The key for a token with this `kid` and `alg`: from the cached set, else from a fresh fetch.
    func key(kid: String?, alg: SignatureAlgorithm) async throws(IDTokenError) -> JWK {
        if let keys, let key = Self.select(kid: kid, alg: alg, from: keys) { return key }
        let fresh = try await fetch()
        keys = fresh
        guard let key = Self.select(kid: kid, alg: alg, from: fresh) else { throw .unknownKey(kid: kid) }
        return key
    }

    /// With a `kid`, the key that has it; without one, the only key that fits the algorithm.
    private static func select(kid: String?, alg: SignatureAlgorithm, from keys: [JWK]) -> JWK? {
        if let kid { return keys.first { $0.keyIdentifier?.string == kid } }
        let fitting = keys.filter { $0.keyType == alg.keyType }
        return fitting.count == 1 ? fitting[0] : nil
    }

    private func fetch() async throws(IDTokenError) -> [JWK] {
        let response: HTTPResponse
        do { response = try await http.send(HTTPRequest(url: url, headers: ["Accept": "application/json"])) } catch {
            throw .keySetUnavailable(error.description)
        }
        guard response.status == 200, let set = try? JSONDecoder().decode(JWKS.self, from: response.body) else {
            throw .keySetUnavailable("\(url.absoluteString) answered HTTP \(response.status) without a JWKS")
        }
        return set.keys
    }
}
