import OpenIDConnect
internal import CWebKitGTK

/// Receives a redirect on a loopback address: a libsoup server on the GLib main loop that answers
/// only the exact redirect path, with the methods it is told to accept, and `404` elsewhere.
/// A request whose `Host` header is not the address listened on (a page on another site that a
/// rebinding DNS name points at 127.0.0.1) and a request its owner refuses are answered `400`,
/// and the listener keeps waiting.
///
/// Two uses: a `response_mode=form_post` response to a loopback redirect URI (WebKit reports a
/// form POST's method to the navigation policy but not its body, so the POST has to really
/// arrive somewhere; it is answered `204 No Content`, so nothing loads), and the system browser's
/// redirect in the RFC 8252 flow (answered with a small "you can close this tab" page).
@WebKitActor
final class LoopbackRedirectListener {
    /// What arrived at the redirect path.
    struct Request {
        /// `http://HOST:PORT/path?query`, as requested.
        let url: String
        let method: String
        /// The form body of a POST.
        let body: String?
    }

    /// How the listener answers a request it accepts.
    enum Reply {
        /// `204 No Content`: the page that posted stays as it is.
        case noContent
        /// `200` with this HTML.
        case page(String)
    }

    private let server: GObjectReference<OpaquePointer>
    private let host: String
    private let path: String
    private let methods: Set<String>
    private let reply: Reply
    private let onRequest: @WebKitActor (Request) -> Bool
    /// The port listened on (the one asked for, or the one the system chose for 0).
    private(set) var port = 0

    /// Binds `port` (0: a free one) on the loopback `host` (`127.0.0.1`, `[::1]` or `localhost`).
    /// `onRequest` sees each request to the path and returns whether it is the awaited one
    /// (answered with `reply`); one it refuses is answered `400`.
    /// - Throws: ``WebAuthenticationError/loopbackListenerUnavailable(port:message:)`` when it cannot bind.
    init(host: String, port: Int, path: String, methods: Set<String>, reply: Reply,
         onRequest: @escaping @WebKitActor (Request) -> Bool) throws(WebAuthenticationError) {
        let server = GObjectReference(adopting: OpaquePointer(cwk_soup_server_new()!))
        self.server = server
        self.host = host
        self.path = path
        self.methods = methods
        self.reply = reply
        self.onRequest = onRequest
        soup_server_add_handler(UnsafeMutablePointer(server.pointer), nil, { _, message, _, _, data in
            guard let message, let listener = WeakTarget<LoopbackRedirectListener>.from(data) else { return }
            WebKitActor.assumeIsolated { listener.handle(message) }
        }, RetainedValue.retained(WeakTarget(self)), RetainedBox.destroyNotify)
        let family: SoupServerListenOptions = switch host {
        case "[::1]": SOUP_SERVER_LISTEN_IPV6_ONLY
        case "127.0.0.1": SOUP_SERVER_LISTEN_IPV4_ONLY
        default: SoupServerListenOptions(rawValue: 0)
        }
        let listening: gboolean
        do throws(GLibError) {
            listening = try GLibError.attempt { soup_server_listen_local(UnsafeMutablePointer(server.pointer), guint(port), family, $0) }
        } catch {
            throw .loopbackListenerUnavailable(port: port, message: error.message)
        }
        guard listening != 0 else { throw .loopbackListenerUnavailable(port: port, message: "unknown error") }
        self.port = Self.boundPort(of: server.pointer) ?? port
    }

    isolated deinit {
        soup_server_disconnect(UnsafeMutablePointer(server.pointer))
    }

    private static func boundPort(of server: OpaquePointer) -> Int? {
        guard let uris = soup_server_get_uris(UnsafeMutablePointer(server)) else { return nil }
        defer { g_slist_free_full(uris) { g_uri_unref(OpaquePointer($0)) } }
        guard let first = uris.pointee.data else { return nil }
        return Int(g_uri_get_port(OpaquePointer(first)))
    }

    private func handle(_ message: OpaquePointer) {
        let uri = soup_server_message_get_uri(message)
        let requestPath = uri.flatMap { g_uri_get_path($0) }.map { String(cString: $0) } ?? ""
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? ""
        guard requestPath == path, methods.contains(method) else {
            soup_server_message_set_status(message, 404, nil)
            return
        }
        guard isAddressedHere(message) else {
            refuse(message, because: "This address only answers requests for \(host):\(port).")
            return
        }
        let query = uri.flatMap { g_uri_get_query($0) }.map { "?" + String(cString: $0) } ?? ""
        var body: String?
        if method == "POST" {
            let bytes = soup_server_message_get_request_body(message).flatMap { soup_message_body_flatten($0) }
            defer { if let bytes { g_bytes_unref(bytes) } }
            var size: gsize = 0
            body = bytes.flatMap { g_bytes_get_data($0, &size) }.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(size)), as: UTF8.self)
            } ?? ""
        }
        guard onRequest(Request(url: "http://\(host):\(port)\(path)\(query)", method: method, body: body)) else {
            refuse(message, because: "This is not the answer the application is waiting for.")
            return
        }
        switch reply {
        case .noContent:
            soup_server_message_set_status(message, 204, nil)
        case .page(let html):
            soup_server_message_set_status(message, 200, nil)
            soup_server_message_set_response(message, "text/html; charset=utf-8", SOUP_MEMORY_COPY, html, gsize(html.utf8.count))
        }
    }

    /// Whether the request's `Host` header names the address listened on (without the port
    /// only for port 80, as HTTP allows).
    private func isAddressedHere(_ message: OpaquePointer) -> Bool {
        let headers = soup_server_message_get_request_headers(message)
        guard let value = soup_message_headers_get_one(headers, "Host").map({ String(cString: $0).lowercased() }) else { return false }
        return value == "\(host):\(port)".lowercased() || (port == 80 && value == host.lowercased())
    }

    /// Answers `400 Bad Request` with a one-line explanation.
    private func refuse(_ message: OpaquePointer, because reason: String) {
        soup_server_message_set_status(message, 400, nil)
        soup_server_message_set_response(message, "text/plain; charset=utf-8", SOUP_MEMORY_COPY, reason, gsize(reason.utf8.count))
    }
}
