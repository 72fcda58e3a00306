import OpenIDConnect
internal import CWebKitGTK

/// Receives a `response_mode=form_post` response sent to a loopback redirect URI.
///
/// WebKit reports a form POST's method to the navigation policy but not its body, so the POST
/// has to really arrive somewhere: here, a libsoup server on the GLib main loop, bound to the
/// redirect URI's loopback host and port only for as long as the page waits for it. It answers
/// `204 No Content` (nothing loads) on the exact redirect path and `404` elsewhere.
@WebKitActor
final class LoopbackFormPostListener {
    private let server: OpaquePointer
    private let path: String
    private let onPost: @WebKitActor (String?) -> Void

    /// Binds `port` on the redirect URI's loopback host.
    /// - Throws: ``WebAuthSessionError/loopbackListenerUnavailable(port:message:)`` when it cannot bind.
    init(redirectURI: RedirectURI, port: Int, onPost: @escaping @WebKitActor (String?) -> Void) throws(WebAuthSessionError) {
        self.server = OpaquePointer(cwk_soup_server_new()!)
        self.path = redirectURI.path
        self.onPost = onPost
        let box = Unmanaged.passRetained(ListenerBox(self)).toOpaque()
        soup_server_add_handler(UnsafeMutablePointer(server), nil, { _, message, _, _, data in
            guard let message, let data else { return }
            WebKitActor.assumeIsolated {
                Unmanaged<ListenerBox>.fromOpaque(data).takeUnretainedValue().listener?.handle(message)
            }
        }, box, { data in
            guard let data else { return }
            Unmanaged<ListenerBox>.fromOpaque(data).release()
        })
        let family: SoupServerListenOptions = switch redirectURI.host {
        case "[::1]": SOUP_SERVER_LISTEN_IPV6_ONLY
        case "127.0.0.1": SOUP_SERVER_LISTEN_IPV4_ONLY
        default: SoupServerListenOptions(rawValue: 0)
        }
        var error: UnsafeMutablePointer<GError>?
        if soup_server_listen_local(UnsafeMutablePointer(server), guint(port), family, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            g_object_unref(UnsafeMutableRawPointer(server))
            throw .loopbackListenerUnavailable(port: port, message: message)
        }
    }

    isolated deinit {
        soup_server_disconnect(UnsafeMutablePointer(server))
        g_object_unref(UnsafeMutableRawPointer(server))
    }

    private func handle(_ message: OpaquePointer) {
        let uri = soup_server_message_get_uri(message)
        let requestPath = uri.flatMap { g_uri_get_path($0) }.map { String(cString: $0) } ?? ""
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? ""
        guard requestPath == path, method == "POST" else {
            soup_server_message_set_status(message, 404, nil)
            return
        }
        let body = soup_server_message_get_request_body(message)
        let bytes = body.flatMap { soup_message_body_flatten($0) }
        defer { if let bytes { g_bytes_unref(bytes) } }
        var size: gsize = 0
        let text = bytes.flatMap { g_bytes_get_data($0, &size) }.map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(size)), as: UTF8.self)
        }
        soup_server_message_set_status(message, 204, nil)
        onPost(text ?? "")
    }

    /// The handler's user data: a weak reference, released by libsoup's destroy notify.
    private final class ListenerBox {
        weak var listener: LoopbackFormPostListener?
        init(_ listener: LoopbackFormPostListener) { self.listener = listener }
    }
}
