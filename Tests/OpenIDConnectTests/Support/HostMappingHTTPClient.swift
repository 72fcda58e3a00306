import Foundation
import OpenIDConnect
import OpenIDConnectURLSession

/// Sends requests for a provider's public origin (`https://id.example.com`) to a test server on
/// 127.0.0.1 instead, as an `/etc/hosts` entry and a TLS-terminating proxy would: the client under
/// test sees the public URLs, the bytes travel over real HTTP to a real server.
struct HostMappingHTTPClient: HTTPClient {
    /// The origin the client asks for, e.g. `https://id.example.com`.
    let origin: String
    /// The base URL of the server that answers instead, e.g. `http://127.0.0.1:PORT`.
    let target: String
    let http = URLSessionHTTPClient()

    /// Maps `origin` to `server`.
    init(origin: String, server: TestProviderServer) {
        self.init(origin: origin, target: server.issuer)
    }

    /// Maps `origin` to the server at `target`.
    init(origin: String, target: String) {
        self.origin = origin
        self.target = target
    }

    func send(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
        let url = request.url.absoluteString
        guard url.hasPrefix(origin) else { throw .network(url: url, message: "not mapped to the test server") }
        var mapped = request
        mapped.url = URL(string: target + url.dropFirst(origin.count))!
        return try await http.send(mapped)
    }
}
