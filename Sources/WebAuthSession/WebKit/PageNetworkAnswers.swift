import Foundation
import Logging
import OpenIDConnect
internal import CWebKitGTK

/// What a sign-in page answers when the network asks: a certificate that failed the system's
/// checks (the CA file's authorities may vouch for it), a proxy's `407` (its URL's credentials,
/// once), a server's `401` (``PageHTTPAuthentication``) and a request for a client certificate
/// (``PageClientCertificate``). The page hands each request here and acts on the answer.
@WebKitActor
final class PageNetworkAnswers {
    /// The proxies the page goes through, for their credentials.
    private let proxyRoute: ProxyRoute
    private var httpAuthentication: PageHTTPAuthentication
    private let clientCertificate: PageClientCertificate
    /// Authorities trusted beside the system's.
    private let caFile: TrustedCAFile?
    private let logger: Logger

    /// The answers for a sign-in at `startURL` with `options`. A form POST to a loopback
    /// `redirectURI` goes to a listener of ours on this machine: never through a proxy, which
    /// could not reach it.
    init(startURL: URL, options: WebAuthenticationOptions, redirectURI: RedirectURI, logger: Logger) {
        var route = options.proxy.route(in: ProcessInfo.processInfo.environment)
        if redirectURI.kind == .loopback, let host = redirectURI.host, let port = redirectURI.port {
            route = route.reachingDirectly(redirectURI.portMatching == .exact ? "\(host):\(port)" : host)
        }
        proxyRoute = route
        httpAuthentication = PageHTTPAuthentication(startURL: startURL, options: options)
        clientCertificate = PageClientCertificate(startURL: startURL, options: options)
        caFile = options.caFile
        self.logger = logger
    }

    /// Makes TLS errors fatal for `view` (the CA file answers in ``vouchesFor(_:host:in:)``) and
    /// sends its requests through the proxy route.
    func apply(to view: UnsafeMutablePointer<WebKitWebView>) {
        webkit_website_data_manager_set_tls_errors_policy(webkit_web_view_get_website_data_manager(view), WEBKIT_TLS_ERRORS_POLICY_FAIL)
        proxyRoute.apply(to: webkit_web_view_get_website_data_manager(view))
    }

    /// Whether `certificate`, which failed the system's checks for `host`, leads to the CA file's
    /// authorities and names `host`; if so it is allowed for `host` in `context` from now on.
    func vouchesFor(_ certificate: UnsafeMutablePointer<GTlsCertificate>, host: String,
                    in context: UnsafeMutablePointer<WebKitWebContext>) -> Bool {
        guard let caFile, caFile.trusts(certificate, host: host) else { return false }
        logger.info("certificate trusted through the CA file", metadata: ["host": "\(host)", "file": "\(caFile.path)"])
        webkit_web_context_allow_tls_certificate_for_host(context, certificate, host)
        return true
    }

    /// How the connection of the page committed in `view` is protected.
    func tlsState(of view: UnsafeMutablePointer<WebKitWebView>) -> TLSState {
        var certificate: UnsafeMutablePointer<GTlsCertificate>?
        var flags = GTlsCertificateFlags(rawValue: 0)
        guard webkit_web_view_get_tls_info(view, &certificate, &flags) != 0, let certificate else { return .none }
        if flags.rawValue == 0 { return .valid }
        let host = webkit_web_view_get_uri(view).flatMap { URLComponents(string: String(cString: $0))?.host } ?? ""
        return caFile?.trusts(certificate, host: host) == true ? .validByCAFile : .invalid(TLSErrors(rawValue: flags.rawValue))
    }

    /// Answers `request`: a client certificate or its PIN, a proxy's credentials (once; a
    /// refusal, or a proxy with none, fails with ``WebAuthenticationError/proxyAuthenticationFailed(proxy:credentialsGiven:)``),
    /// or a server's HTTP authentication.
    func answer(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> PageHTTPAuthentication.Decision {
        if PageClientCertificate.isAsked(by: request) {
            return clientCertificate.answer(request).map { .failed($0) } ?? .handled
        }
        guard webkit_authentication_request_is_for_proxy(request) != 0 else { return httpAuthentication.handle(request) }
        let host = webkit_authentication_request_get_host(request).map { String(cString: $0) } ?? ""
        let port = Int(webkit_authentication_request_get_port(request))
        let endpoint = proxyRoute.endpoint(host: host, port: port)
        guard webkit_authentication_request_is_retry(request) == 0, let user = endpoint?.user, let password = endpoint?.password else {
            webkit_authentication_request_cancel(request)
            return .failed(.proxyAuthenticationFailed(proxy: "\(host):\(port)", credentialsGiven: endpoint?.user != nil))
        }
        logger.debug("proxy credentials given", metadata: ["proxy": "\(host):\(port)"])
        let credential = webkit_credential_new(user, password, WEBKIT_CREDENTIAL_PERSISTENCE_FOR_SESSION)
        webkit_authentication_request_authenticate(request, credential)
        webkit_credential_free(credential)
        return .handled
    }

    /// Answers the page's requests for HTTP authentication with `credential` from now on (nil:
    /// a headless page that asks fails); returns why the session ends, if it does.
    func answerHTTPAuthentication(with credential: HTTPCredential?) -> WebAuthenticationError? {
        httpAuthentication.answer(with: credential)
    }
}
