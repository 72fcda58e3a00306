import Foundation
internal import JWTKit

/// A provider's JSON Web Key Set, fetched on first use and fetched once more when a token names
/// a key it does not have (the provider rotated its keys), at most once per
/// ``refetchInterval``: tokens with made-up `kid`s cannot make the client hammer the provider.
/// A sign-in starts the first fetch while the page is shown (``prefetch()``), so that its token
/// does not wait for it.
actor JWKSCache {
    /// The shortest time between two fetches for an unknown `kid`.
    static let refetchInterval: TimeInterval = 60
    private let url: URL
    private let http: any HTTPClient
    private var keys: [JWK]?
    private var lastFetch: Date?
    /// The fetch ``prefetch()`` started, until a token needs it; nil when it failed.
    private var prefetched: Task<[JWK]?, Never>?

    init(url: URL, http: any HTTPClient) {
        self.url = url
        self.http = http
    }

    /// The key for a token with this `kid` and `alg`: from the cached set, else from a fresh fetch
    /// unless the last one was less than ``refetchInterval`` before `now`.
    func key(kid: String?, alg: SignatureAlgorithm, now: Date) async throws(IDTokenError) -> JWK {
        if keys == nil, let prefetched {
            self.prefetched = nil
            keys = await prefetched.value
        }
        if let keys {
            if let key = Self.select(kid: kid, alg: alg, from: keys) { return key }
            if let lastFetch, now.timeIntervalSince(lastFetch) < Self.refetchInterval { throw .unknownKey(kid: kid) }
        }
        lastFetch = now
        let fresh = try await fetch()
        keys = fresh
        guard let key = Self.select(kid: kid, alg: alg, from: fresh) else { throw .unknownKey(kid: kid) }
        return key
    }

    /// Starts fetching the key set when it has none. A failed prefetch is forgotten (the token's
    /// validation fetches again), and a prefetched set does not count as a fetch for an unknown
    /// `kid`: a provider that rotates its keys while a person signs in is asked once more.
    func prefetch() {
        guard keys == nil, prefetched == nil else { return }
        prefetched = Task { try? await self.fetch() }
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
