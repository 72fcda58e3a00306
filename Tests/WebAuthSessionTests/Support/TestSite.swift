import DevProvider
import Foundation
import Synchronization

/// A real HTTP server on a loopback address that serves the pages a test registers and
/// records every request it receives (so a test can assert a redirect never reached it).
final class TestSite: Sendable {
    let server: LocalHTTPServer
    private let pages = Mutex<[String: @Sendable (LocalHTTPRequest) -> LocalHTTPResponse]>([:])
    private let log = Mutex<[LocalHTTPRequest]>([])
    private let counter = Atomic<Int>(0)

    private init(server: LocalHTTPServer) {
        self.server = server
    }

    /// A site on `host` (a free port).
    static func start(host: String = "127.0.0.1") async throws -> TestSite {
        let box = Mutex<TestSite?>(nil)
        let server = try await LocalHTTPServer.start(host: host) { request in
            guard let site = box.withLock({ $0 }) else { return LocalHTTPResponse(status: 503) }
            return site.respond(to: request)
        }
        let site = TestSite(server: server)
        box.withLock { $0 = site }
        return site
    }

    /// Serves `response` at a new path and returns its URL.
    func serve(_ response: LocalHTTPResponse) -> URL {
        route { _ in response }
    }

    /// Answers requests to a new path with `handler` and returns its URL.
    func route(_ handler: @escaping @Sendable (LocalHTTPRequest) -> LocalHTTPResponse) -> URL {
        let path = "/page/\(counter.add(1, ordering: .relaxed).newValue)"
        pages.withLock { $0[path] = handler }
        return server.baseURL.appendingPathComponent(String(path.dropFirst()))
    }

    /// Serves `response` at `path` (a third party's path shape, served here) and returns its URL.
    func serve(_ response: LocalHTTPResponse, at path: String) -> URL {
        pages.withLock { $0[path] = { _ in response } }
        return URL(string: url(path))!
    }

    /// Serves an HTML page with `body` (and `head`) at a new path and returns its URL.
    func page(title: String = "Test page", head: String = "", body: String) -> URL {
        serve(.html("<!DOCTYPE html><html><head><meta charset='utf-8'><title>\(title)</title>\(head)</head><body>\(body)</body></html>"))
    }

    /// `http://HOST:PORT/path` on this site (it answers 404 there unless a page is registered).
    func url(_ path: String) -> String { server.baseURL.absoluteString + path }

    /// The requests received so far.
    var requests: [LocalHTTPRequest] { log.withLock { $0 } }

    /// The requests received for `path`.
    func requests(to path: String) -> [LocalHTTPRequest] { requests.filter { $0.path == path } }

    private func respond(to request: LocalHTTPRequest) -> LocalHTTPResponse {
        log.withLock { $0.append(request) }
        guard let handler = pages.withLock({ $0[request.path] }) else { return LocalHTTPResponse(status: 404, body: "not found") }
        return handler(request)
    }
}
