import Foundation
import GLibKit
import OpenIDConnect
package import CSoup

/// One request of a ``SoupHTTPClient`` on the ``NetworkThread``: its own session (no cookies,
/// no cache, its proxy resolver), the message, the proxy's credentials, and the caller waiting
/// for the result. Made, used and released on the network thread only.
package final class SoupExchange {
    package typealias Completion = @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void

    /// A `GCancellable` the caller's task cancels. @unchecked: `g_cancellable_cancel` is
    /// documented as callable from any thread; everything else happens on the network thread.
    package final class Cancellable: @unchecked Sendable {
        package let reference = GObjectReference(adopting: g_cancellable_new()!)

        /// Stops the request (it then fails as cancelled).
        package func cancel() {
            reference.withPointer { g_cancellable_cancel($0) }
        }
    }

    private let session: GObjectReference<UnsafeMutablePointer<SoupSession>>
    private let message: GObjectReference<OpaquePointer>
    private let url: String
    private let route: ProxyRoute
    private let caFile: TrustedCAFile?
    private let clientCertificate: ClientCertificate?
    private let host: String
    private let completion: Completion
    /// The proxy whose `407` was not answered, and whether credentials had been given.
    private var proxyRefusal: (proxy: String, credentialsGiven: Bool)?
    /// Whether the client certificate's token asked for a PIN it could not have: none was
    /// configured, or it asked again (a retry: it refused the one given).
    private var pinRefused = false

    private init(session: GObjectReference<UnsafeMutablePointer<SoupSession>>, message: GObjectReference<OpaquePointer>,
                 url: String, host: String, route: ProxyRoute, caFile: TrustedCAFile?, clientCertificate: ClientCertificate?,
                 completion: @escaping Completion) {
        (self.session, self.message, self.url, self.host) = (session, message, url, host)
        (self.route, self.caFile, self.clientCertificate, self.completion) = (route, caFile, clientCertificate, completion)
    }

    /// Sends `request`; `completion` gets the response or the error, once.
    package static func start(_ request: HTTPRequest, route: ProxyRoute, caFile: TrustedCAFile?, clientCertificate: ClientCertificate?,
                      timeout: Duration, cancellable: Cancellable, completion: @escaping Completion) {
        let url = URLRedaction.redactingValues(request.url.absoluteString)
        guard let made = soup_message_new(request.method, request.url.absoluteString) else {
            return completion(.failure(.network(url: url, message: "libsoup cannot send \(request.method) to this URL")))
        }
        let message = GObjectReference(adopting: made)
        soup_message_add_flags(made, SOUP_MESSAGE_NO_REDIRECT)
        let fields = soup_message_get_request_headers(made)
        var contentType: String?
        for (name, value) in request.headers {
            if name.lowercased() == "content-type" { contentType = value } else { soup_message_headers_replace(fields, name, value) }
        }
        if let body = request.body {
            let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count))! }
            soup_message_set_request_body_from_bytes(made, contentType, bytes)
            g_bytes_unref(bytes)
        }
        let session = GObjectReference(adopting: soup_session_new()!)
        soup_session_set_timeout(session.pointer, guint(timeout.components.seconds))
        // A plain-http request goes to the proxy itself: its Basic credentials go with it at
        // once, as curl sends them (a 407 to a POST may come before the body was read, and the
        // connection be closed under it). An https request's CONNECT answers the 407 instead.
        if let proxy = route.apply(to: session.pointer, for: request.url.absoluteString), request.url.scheme == "http",
           let user = proxy.user, let password = proxy.password {
            soup_message_headers_replace(fields, "Proxy-Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
        }
        let exchange = SoupExchange(session: session, message: message, url: url, host: request.url.host ?? "", route: route, caFile: caFile,
                                    clientCertificate: clientCertificate, completion: completion)
        LifetimeSignal.connect(made, .soupAuthenticate, target: exchange, handler: Self.authenticate)
        if caFile != nil { LifetimeSignal.connect(made, .acceptCertificate, target: exchange, handler: Self.acceptCertificate) }
        if clientCertificate != nil {
            LifetimeSignal.connect(made, .networkEvent, target: exchange, handler: Self.presentCertificate)
            LifetimeSignal.connect(made, .requestCertificatePassword, target: exchange, handler: Self.requestPIN)
        }
        cancellable.reference.withPointer { cancellable in
            soup_session_send_and_read_async(session.pointer, made, G_PRIORITY_DEFAULT, cancellable, { _, result, data in
                RetainedValue<SoupExchange>.take(data)?.finish(result)
            }, RetainedValue.retained(exchange))
        }
    }

    /// `authenticate`: answers a proxy's first `407` with its URL's credentials; a server's
    /// request, a retry, or a proxy with none is left unanswered (its `407`/`401` comes back).
    private static let authenticate: CWKSoupAuthenticateHandler = { _, auth, retrying, data in
        guard let exchange = WeakTarget<SoupExchange>.from(data), let auth, soup_auth_is_for_proxy(auth) != 0 else { return 0 }
        let authority = soup_auth_get_authority(auth).map { String(cString: $0) } ?? ""
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        let endpoint = exchange.route.endpoint(host: parts.dropLast().joined(separator: ":"), port: parts.last.flatMap { Int($0) } ?? 80)
        guard retrying == 0, let user = endpoint?.user, let password = endpoint?.password else {
            exchange.proxyRefusal = (authority, endpoint?.user != nil)
            return 0
        }
        soup_auth_authenticate(auth, user, password)
        return 1
    }

    /// `accept-certificate`: a certificate the system's authorities reject is accepted when it
    /// leads to the CA file's and names the request's host.
    private static let acceptCertificate: CWKSoupAcceptCertificateHandler = { _, certificate, _, data in
        guard let exchange = WeakTarget<SoupExchange>.from(data), let certificate, let caFile = exchange.caFile else { return 0 }
        return caFile.trusts(certificate, host: exchange.host) ? 1 : 0
    }

    /// `network-event`: the TLS handshake is about to start; its connection gets the client
    /// certificate now, so that a session resumed later is one made with this certificate.
    private static let presentCertificate: CWKSoupNetworkEventHandler = { _, event, stream, data in
        guard event == G_SOCKET_CLIENT_TLS_HANDSHAKING, let exchange = WeakTarget<SoupExchange>.from(data), let stream,
              let certificate = exchange.clientCertificate?.certificate else { return }
        certificate.withPointer { cwk_tls_stream_set_certificate(stream, $0) }
    }

    /// `request-certificate-password`: gives the client certificate's PIN; a retry (the token
    /// refused it), or a request with no PIN configured, fails the handshake.
    private static let requestPIN: CWKSoupCertificatePasswordHandler = { message, password, data in
        guard let exchange = WeakTarget<SoupExchange>.from(data), let message, let password else { return 0 }
        let isRetry = g_tls_password_get_flags(password).rawValue & G_TLS_PASSWORD_RETRY.rawValue != 0
        guard !isRetry, let pin = exchange.clientCertificate?.pin else {
            exchange.pinRefused = true
            return 0
        }
        g_tls_password_set_value(password, pin, -1)
        soup_message_tls_client_certificate_password_request_complete(message)
        return 1
    }

    private func finish(_ result: OpaquePointer?) {
        let outcome: Result<HTTPResponse, HTTPClientError>
        do {
            let bytes = try GLibError.attempt { soup_session_send_and_read_finish(session.pointer, result, $0) }
            outcome = response(bytes)
        } catch {
            let message = pinRefused ? "the client certificate's token \(clientCertificate?.description ?? "") was given no PIN, or refused it"
                : error.message
            outcome = .failure(proxyRefusal.map { .proxyAuthenticationFailed(proxy: $0.proxy, credentialsGiven: $0.credentialsGiven) }
                ?? (error.domain == "g-tls-error-quark" ? .tls(url: url, message: message) : .network(url: url, message: error.message)))
        }
        completion(outcome)
    }

    private func response(_ bytes: OpaquePointer?) -> Result<HTTPResponse, HTTPClientError> {
        defer { if let bytes { g_bytes_unref(bytes) } }
        let status = Int(soup_message_get_status(message.pointer).rawValue)
        if status == 407, let refusal = proxyRefusal {
            return .failure(.proxyAuthenticationFailed(proxy: refusal.proxy, credentialsGiven: refusal.credentialsGiven))
        }
        var size: gsize = 0
        let body = bytes.flatMap { g_bytes_get_data($0, &size) }.map { Data(bytes: $0, count: Int(size)) } ?? Data()
        var headers: [String: String] = [:]
        withUnsafeMutablePointer(to: &headers) { headers in
            soup_message_headers_foreach(soup_message_get_response_headers(message.pointer), { name, value, data in
                guard let name, let value else { return }
                let headers = data!.assumingMemoryBound(to: [String: String].self)
                let key = String(cString: name).lowercased()
                headers.pointee[key] = headers.pointee[key].map { $0 + ", " + String(cString: value) } ?? String(cString: value)
            }, headers)
        }
        return .success(HTTPResponse(status: status, headers: headers, body: body))
    }
}
