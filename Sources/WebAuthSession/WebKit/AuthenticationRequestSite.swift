import OpenIDConnect
internal import CWebKitGTK
import SecretGate

/// The site of a server's request for HTTP authentication or a client certificate, as
/// `SecretGate` takes it: the scheme from the request's security origin, its host and port.
@WebKitActor
enum AuthenticationRequestSite {
    /// Where `request` comes from. A request for a client certificate comes in a TLS handshake,
    /// so its scheme is `https` when WebKit gives none.
    static func of(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> SecretRecipient {
        var buffer = [CChar](repeating: 0, count: 16)
        cwk_authentication_request_scheme(request, &buffer, buffer.count)
        let scheme = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.lowercased()
        let host = webkit_authentication_request_get_host(request).map { String(cString: $0) } ?? ""
        let port = Int(webkit_authentication_request_get_port(request))
        return .site(scheme: scheme.isEmpty ? "https" : scheme, host: host, port: port > 0 ? port : nil)
    }
}
