import Foundation

/// A provider's JSON Web Key Set, fetched on first use and fetched once more when a token names
/// a key it does not have (the provider rotated its keys), at most once per
/// ``refetchInterval``: tokens with made-up `kid`s cannot make the client hammer the provider.
/// A sign-in starts the first fetch while the page is shown (``prefetch()``), so that its token
/// does not wait for it. The set is read by ``JSONWebKey``, which skips the keys it does not understand.
actor JWKSCache {
    /// The shortest time between two fetches for an unknown `kid`.
    static let refetchInterval: TimeInterval = 60
    private let url: URL
    private let http: any HTTPClient
    private var keys: [JSONWebKey]?
    private var lastFetch: Date?
    /// The fetch ``prefetch()`` started, until a token needs it; nil when it failed.
    private var prefetched: Task<[JSONWebKey]?, Never>?

    init(url: URL, http: any HTTPClient) {
        self.url = url
        self.http = http
    }

    /// The key for a token with this `kid` and `alg` (``JSONWebKey/select(kid:alg:from:)``): from
    /// the cached set, else from a fresh fetch unless the last one was less than ``refetchInterval``
    /// before `now`. A key that is there but does not fit, or several that fit, fetch nothing.
    func key(kid: String?, alg: SignatureAlgorithm, now: Date) async throws(IDTokenError) -> JSONWebKey {
        if keys == nil, let prefetched {
            self.prefetched = nil
            keys = await prefetched.value
        }
        if let keys {
            if let key = try Self.chosen(JSONWebKey.select(kid: kid, alg: alg, from: keys), kid: kid, alg: alg) { return key }
            if let lastFetch, now.timeIntervalSince(lastFetch) < Self.refetchInterval { throw .unknownKey(kid: kid) }
        }
        lastFetch = now
        let fresh = try await fetch()
        keys = fresh
        guard let key = try Self.chosen(JSONWebKey.select(kid: kid, alg: alg, from: fresh), kid: kid, alg: alg) else {
            throw .unknownKey(kid: kid)
        }
        return key
    }

    /// The selected key; `nil` when none has the `kid` (or, without one, none fits): the set may have rotated.
    private static func chosen(_ selection: JSONWebKey.Selection, kid: String?, alg: SignatureAlgorithm) throws(IDTokenError) -> JSONWebKey? {
        switch selection {
        case .found(let key): return key
        case .absent: return nil
        case .unfit: throw .keyAlgorithmMismatch(alg: alg.rawValue, kid: kid)
        case .ambiguous(let count): throw .ambiguousKey(alg: alg.rawValue, kid: kid, candidates: count)
        }
    }

    /// Starts fetching the key set when it has none. A failed prefetch is forgotten (the token's
    /// validation fetches again), and a prefetched set does not count as a fetch for an unknown
    /// `kid`: a provider that rotates its keys while a person signs in is asked once more.
    func prefetch() {
        guard keys == nil, prefetched == nil else { return }
        prefetched = Task { try? await self.fetch() }
    }

    private func fetch() async throws(IDTokenError) -> [JSONWebKey] {
        let response: HTTPResponse
        do { response = try await http.send(HTTPRequest(url: url, headers: ["Accept": "application/json"])) } catch {
            throw .keySetUnavailable(error.description)
        }
        guard response.status == 200, let set = JSONWebKey.set(response.body) else {
            throw .keySetUnavailable("\(url.absoluteString) answered HTTP \(response.status) without a JWKS")
        }
        return set
    }
}
