import Foundation

/// A server's demand for a DPoP nonce (RFC 9449 §8, §9): a `use_dpop_nonce` error, in the JSON
/// body of an authorization server's `400` or in the `WWW-Authenticate` of a resource server's
/// `401`, with the nonce to use in the `DPoP-Nonce` header. The client retries once with it.
enum DPoPNonce {
    /// The nonce `response` asks for, or `nil` when it asks for none.
    static func demanded(by response: HTTPResponse) -> String? {
        guard response.status == 400 || response.status == 401, let nonce = response.headers["dpop-nonce"] else { return nil }
        let body = try? JSONDecoder().decode([String: JSONValue].self, from: response.body)
        let asked = body?["error"]?.stringValue == "use_dpop_nonce"
            || response.headers["www-authenticate"]?.contains("use_dpop_nonce") == true
        return asked ? nonce : nil
    }

    /// Sends `request(nil)`, and once more with the server's nonce when it demands one.
    /// - Throws: ``DPoPError/nonceRefused(url:)`` when the retry is answered with another demand.
    static func retrying(_ url: URL, _ request: (String?) async throws(OpenIDConnectError) -> HTTPResponse)
        async throws(OpenIDConnectError) -> HTTPResponse {
        let first = try await request(nil)
        guard let nonce = demanded(by: first) else { return first }
        let second = try await request(nonce)
        if demanded(by: second) != nil { throw .dpop(.nonceRefused(url: URLRedaction.redactingValues(url.absoluteString))) }
        return second
    }
}
