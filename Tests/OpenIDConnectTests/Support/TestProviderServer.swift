import DevProvider
import Foundation
import OpenIDConnect
import Synchronization

/// A real HTTP server on 127.0.0.1 standing in for one provider endpoint at a time: each test
/// sets the handler for the request it is about, and the server counts requests per path.
final class TestProviderServer: Sendable {
    let server: LocalHTTPServer
    private let handlers = Mutex<[String: @Sendable (LocalHTTPRequest) -> LocalHTTPResponse]>([:])
    private let counts = Mutex<[String: Int]>([:])
    private let received = Mutex<[LocalHTTPRequest]>([])

    static func start() async throws -> TestProviderServer {
        let box = Mutex<TestProviderServer?>(nil)
        let server = try await LocalHTTPServer.start { request in
            box.withLock { $0 }?.respond(request) ?? LocalHTTPResponse(status: 503)
        }
        let provider = TestProviderServer(server: server)
        box.withLock { $0 = provider }
        return provider
    }

    private init(server: LocalHTTPServer) { self.server = server }

    /// The issuer: the server's base URL.
    var issuer: String { server.baseURL.absoluteString }

    func url(_ path: String) -> URL { URL(string: issuer + path)! }

    /// Answers `path` with `handler`.
    func on(_ path: String, _ handler: @escaping @Sendable (LocalHTTPRequest) -> LocalHTTPResponse) {
        handlers.withLock { $0[path] = handler }
    }

    /// Answers `path` with JSON.
    func json(_ path: String, _ value: JSONValue, status: Int = 200) {
        on(path) { _ in LocalHTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: value.description) }
    }

    /// How many requests `path` received.
    func count(_ path: String) -> Int { counts.withLock { $0[path] ?? 0 } }

    /// The requests `path` received.
    func requests(_ path: String) -> [LocalHTTPRequest] { received.withLock { $0.filter { $0.path == path } } }

    /// A configuration with this server's endpoints.
    var configuration: ProviderConfiguration {
        ProviderConfiguration(issuer: issuer, authorizationEndpoint: url("/authorize"), tokenEndpoint: url("/token"),
                              userinfoEndpoint: url("/userinfo"), endSessionEndpoint: url("/logout"),
                              jwksURI: url("/jwks"), revocationEndpoint: url("/revoke"))
    }

    private func respond(_ request: LocalHTTPRequest) -> LocalHTTPResponse {
        counts.withLock { $0[request.path, default: 0] += 1 }
        received.withLock { $0.append(request) }
        return handlers.withLock { $0[request.path] }?(request) ?? LocalHTTPResponse(status: 404, body: "no handler")
    }
}
