import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle

/// A plain HTTP/1.1 server on a loopback address and a free port, for demos and tests.
///
/// Every request goes to one handler, which sees a ``LocalHTTPRequest`` and returns a
/// ``LocalHTTPResponse``; routing is the handler's business. Built on Hummingbird; handlers run
/// on ``ServerThreads``, so a busy cooperative pool does not keep a page from its browser.
package final class LocalHTTPServer: Sendable {
    /// The port the server listens on.
    package let port: Int
    /// The loopback host it listens on (`127.0.0.1` by default).
    package let host: String
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// `http://HOST:PORT`.
    package var baseURL: URL { URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)")! }

    /// Starts the server and returns once it accepts connections.
    /// - Parameters:
    ///   - host: a loopback address to bind.
    ///   - port: the port; 0 picks a free one.
    ///   - handler: answers each request.
    package static func start(host: String = "127.0.0.1", port: Int = 0,
                             handler: @escaping @Sendable (LocalHTTPRequest) async -> LocalHTTPResponse) async throws -> LocalHTTPServer {
        if port != 0, PortProbe.isInUse(host: host, port: port) { throw LocalHTTPServerError.portInUse(host: host, port: port) }
        let (portStream, portSink) = AsyncStream.makeStream(of: Int.self)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            let exchange = LocalHTTPRequest(
                method: request.method.rawValue,
                path: request.uri.path,
                query: request.uri.query ?? "",
                headers: Dictionary(request.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { $0 + ", " + $1 }),
                body: String(buffer: body))
            return await handler(exchange).hummingbirdResponse
        }
        var logger = Logger(label: "LocalHTTPServer")
        logger.logLevel = .warning
        let app = Application(
            responder: responder,
            configuration: .init(address: .hostname(host, port: port), serverName: "LocalHTTPServer"),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        // Its own threads, not the cooperative pool: see ServerThreads.
        let task = Task(executorPreference: ServerThreads.shared) {
            defer { portSink.finish() }  // a server that never ran (its port taken) ends the wait for its port
            try await group.run()
        }
        guard let bound = await portStream.first(where: { _ in true }), bound != 0 else {
            task.cancel()
            let underlying = String(describing: await task.result)
            if underlying.contains(String(cString: strerror(EADDRINUSE))) { throw LocalHTTPServerError.portInUse(host: host, port: port) }
            throw LocalHTTPServerError.couldNotBind(host: host, port: port, underlying: underlying)
        }
        return LocalHTTPServer(host: host, port: bound, group: group, task: task)
    }

    private init(host: String, port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.host = host
        self.port = port
        self.group = group
        self.task = task
    }

    /// Stops accepting connections, lets requests in flight finish, and waits for the server to end.
    package func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}

/// Why a ``LocalHTTPServer`` did not start.
package enum LocalHTTPServerError: Error, Sendable, CustomStringConvertible {
    /// Another program listens on the port.
    case portInUse(host: String, port: Int)
    /// Binding the address failed (not a local address, say).
    case couldNotBind(host: String, port: Int, underlying: String)

    package var description: String {
        switch self {
        case .portInUse(_, let port): "port \(port) is in use"
        case .couldNotBind(let host, let port, let underlying): "could not listen on \(host):\(port): \(underlying)"
        }
    }
}

/// A request as a ``LocalHTTPServer`` handler sees it.
package struct LocalHTTPRequest: Sendable, Hashable {
    /// `GET`, `POST`, ...
    package let method: String
    /// The path, percent-encoded as sent.
    package let path: String
    /// The query string without `?`, percent-encoded as sent.
    package let query: String
    /// Header fields by lowercased name; repeated fields joined with ", ".
    package let headers: [String: String]
    /// The body as text (at most 1 MiB).
    package let body: String

    /// The value of header field `name`, compared case-insensitively.
    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A response from a ``LocalHTTPServer`` handler.
package struct LocalHTTPResponse: Sendable {
    /// The status code.
    package var status: Int
    /// Header fields.
    package var headers: [String: String]
    /// The body.
    package var body: String

    /// A response with `status`, `headers` and `body`.
    package init(status: Int = 200, headers: [String: String] = [:], body: String = "") {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/html` page.
    package static func html(_ body: String, status: Int = 200) -> LocalHTTPResponse {
        LocalHTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8"], body: body)
    }

    /// A `302 Found` to `location`.
    package static func redirect(to location: String) -> LocalHTTPResponse {
        LocalHTTPResponse(status: 302, headers: ["Location": location])
    }

    var hummingbirdResponse: Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
