import Foundation
import OpenIDConnect
package import CSoup

/// An `HTTPClient` on libsoup 3, the network stack of WebKit's pages: the token, userinfo and
/// discovery requests take the same proxy (``ProxySetting``, its `407` answered from the proxy
/// URL) and the same TLS backend (GnuTLS through glib-networking) as the sign-in page. It runs on
/// a GLib main context of its own, so it needs no GTK, no display and no running engine. No
/// cookies, no cache, and redirects are not followed (an OAuth endpoint that redirects is
/// answering, not moving), like `URLSessionHTTPClient`.
public struct SoupHTTPClient: HTTPClient {
    private let route: ProxyRoute
    private let caFile: TrustedCAFile?
    private let clientCertificate: ClientCertificate?
    private let timeout: Duration

    /// A client that goes through `proxy` (read now, for ``ProxySetting/environment``), trusts
    /// the authorities of `caFile` beside the system's, presents `clientCertificate` to a server
    /// that asks for one, and gives each request `timeout`.
    public init(proxy: ProxySetting = .environment, caFile: TrustedCAFile? = nil, clientCertificate: ClientCertificate? = nil,
                timeout: Duration = .seconds(30)) {
        route = proxy.route(in: ProcessInfo.processInfo.environment)
        self.caFile = caFile
        self.clientCertificate = clientCertificate
        self.timeout = timeout
    }

    public func send(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
        let cancellable = SoupExchange.Cancellable()
        let (route, caFile, clientCertificate, timeout) = (route, caFile, clientCertificate, timeout)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                NetworkThread.shared.run {
                    SoupExchange.start(request, route: route, caFile: caFile, clientCertificate: clientCertificate, timeout: timeout,
                                       cancellable: cancellable) { continuation.resume(returning: $0) }
                }
            }
        } onCancel: {
            cancellable.cancel()
        }
        return try result.get()
    }
}
