import Foundation
import OpenIDConnect
import Synchronization
#if canImport(Glibc)
import Glibc
import WebAuthSupport
#endif

/// Receives the system browser's redirect (RFC 8252 §7.3) on 127.0.0.1 at a free port, with
/// plain sockets: no GLib, no libsoup.
///
/// It answers only `GET` and `POST` on the exact path (`404` elsewhere). A request whose `Host`
/// header is not `127.0.0.1:PORT` (a page on another site that a rebinding DNS name points at
/// 127.0.0.1) and one its owner refuses are answered `400`, and the wait goes on. Connections
/// are served side by side on one thread of its own (a browser may open one it never uses).
final class LoopbackListener: Sendable {
    /// What arrived at the redirect path.
    struct Request: Sendable, Hashable {
        /// `http://127.0.0.1:PORT/path?query`, as requested.
        let url: String
        /// The form body of a POST.
        let body: String?
    }

    /// The port listened on.
    let port: Int
    private let path: String
    private let socket: Int32
    /// A pipe whose write end ``stop(_:)`` writes to, so the wait wakes up.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Why the wait ends, once something ended it.
    private let ending = Mutex<AuthorizationUserAgentError?>(nil)

    /// Listens on 127.0.0.1 at a free port for requests to `path`.
    /// - Throws: ``AuthorizationUserAgentError/loopbackListenerUnavailable(port:message:)``.
    init(path: String) throws(AuthorizationUserAgentError) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw Self.unavailable() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        var pipeEnds: [Int32] = [0, 0]
        guard bound == 0, named == 0, listen(socket, 16) == 0, pipe(&pipeEnds) == 0 else {
            let error = Self.unavailable()
            close(socket)
            throw error
        }
        // Glibc's module has no pipe2 or accept4: close-on-exec is set right after, so a child
        // started meanwhile (the browser's opener) may at worst inherit a descriptor, never a request.
        pipeEnds.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        self.socket = socket
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.path = path
        self.wakeRead = pipeEnds[0]
        self.wakeWrite = pipeEnds[1]
    }

    deinit {
        close(socket)
        close(wakeRead)
        close(wakeWrite)
    }

    private static func unavailable() -> AuthorizationUserAgentError {
        .loopbackListenerUnavailable(port: 0, message: String(cString: strerror(errno)))
    }

    /// Ends ``wait(for:page:)`` with `error` (the first reason given wins).
    func stop(_ error: AuthorizationUserAgentError) {
        let first = ending.withLock { ending in
            guard ending == nil else { return false }
            ending = error
            return true
        }
        if first { _ = write(wakeWrite, [1], 1) }
    }

    /// Serves requests until `take` makes something of one (answered `200` with `page`), or
    /// until ``stop(_:)``; cancelling the task stops it with ``AuthorizationUserAgentError/cancelled``.
    /// - Returns: what `take` made of the request it took.
    /// - Throws: the reason given to ``stop(_:)``.
    func wait<Taken: Sendable>(for take: @escaping @Sendable (Request) -> Taken?, page: String) async throws(AuthorizationUserAgentError) -> Taken {
        let served = await withTaskCancellationHandler {
            await onOwnThread(named: "webauth-loopback") { self.serve(take, page: page) }
        } onCancel: {
            stop(.cancelled)
        }
        if let served { return served }
        throw ending.withLock { $0 } ?? .cancelled
    }

    /// The loop on the listener's thread: polls the socket, the wake pipe and every open connection.
    private func serve<Taken>(_ take: (Request) -> Taken?, page: String) -> Taken? {
        var connections: [Int32: [UInt8]] = [:]
        defer { connections.keys.forEach { close($0) } }
        while true {
            var watched = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0), pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
                + connections.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&watched, nfds_t(watched.count), -1) >= 0 || errno == EINTR else { return nil }
            if watched[0].revents != 0 || ending.withLock({ $0 != nil }) { return nil }
            if watched[1].revents & Int16(POLLIN) != 0 {
                let connection = accept(socket, nil, nil)
                if connection >= 0 {
                    _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                    connections[connection] = []
                }
            }
            for entry in watched.dropFirst(2) where entry.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = read(entry.fd, &chunk, chunk.count)
                guard count > 0 else {
                    connections[entry.fd] = nil
                    close(entry.fd)
                    continue
                }
                connections[entry.fd, default: []] += chunk[..<count]
                guard let answer = answer(connections[entry.fd] ?? [], take, page: page) else { continue }
                connections[entry.fd] = nil
                Self.deliver(answer.response, to: entry.fd)
                close(entry.fd)
                if let taken = answer.taken { return taken }
            }
        }
    }

    /// The answer to the bytes a connection has sent so far; `nil` while the request is incomplete.
    private func answer<Taken>(_ bytes: [UInt8], _ take: (Request) -> Taken?, page: String) -> (response: String, taken: Taken?)? {
        switch LoopbackRequest.read(bytes) {
        case .incomplete:
            return nil
        case .malformed(let status):
            return (Self.response(status: status, "This is not a request this address answers."), nil)
        case .complete(let request):
            guard request.path == path, ["GET", "POST"].contains(request.method) else {
                return (Self.response(status: 404, "Not found."), nil)
            }
            guard request.host == "127.0.0.1:\(port)" else {
                return (Self.response(status: 400, "This address only answers requests for 127.0.0.1:\(port)."), nil)
            }
            let received = Request(url: "http://127.0.0.1:\(port)\(path)" + (request.query.map { "?" + $0 } ?? ""),
                                   body: request.method == "POST" ? request.body ?? "" : nil)
            guard let taken = take(received) else {
                return (Self.response(status: 400, "This is not the answer the application is waiting for."), nil)
            }
            return (Self.response(status: 200, page, type: "text/html"), taken)
        }
    }

    private static func response(status: Int, _ body: String, type: String = "text/plain") -> String {
        let reason = [200: "OK", 400: "Bad Request", 404: "Not Found", 413: "Content Too Large"][status] ?? "Error"
        return "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type); charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n\(body)"
    }

    /// Writes all of `response` (small: a page or a line), giving up if the peer has gone.
    private static func deliver(_ response: String, to connection: Int32) {
        var bytes = Array(response.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
