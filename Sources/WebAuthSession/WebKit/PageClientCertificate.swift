import Foundation
import OpenIDConnect
internal import CWebKitGTK
import SecretGate

/// How a page answers a server's request for a client certificate in the TLS handshake (mutual
/// TLS), and its PKCS#11 token's request for a PIN: with ``WebAuthenticationOptions/clientCertificate``
/// and its PIN (each new connection asks again); with none, or a PIN asked again as a retry (the token
/// refused it), the session fails. It goes only where `SecretGate` lets it: the sign-in's
/// host and ``WebAuthenticationOptions/secretHosts``.
@WebKitActor
struct PageClientCertificate {
    private let certificate: ClientCertificate?
    private let gate: SecretGate

    init(startURL: URL, options: WebAuthenticationOptions) {
        certificate = options.clientCertificate
        gate = SecretGate(providerURL: startURL, secretHosts: options.secretHosts)
    }

    /// Whether `request` asks for a client certificate or its PIN (the others are HTTP authentication).
    static func isAsked(by request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> Bool {
        let scheme = webkit_authentication_request_get_scheme(request)
        return scheme == WEBKIT_AUTHENTICATION_SCHEME_CLIENT_CERTIFICATE_REQUESTED || scheme == WEBKIT_AUTHENTICATION_SCHEME_CLIENT_CERTIFICATE_PIN_REQUESTED
    }

    /// Answers `request` (one that ``isAsked(by:)``), or cancels it and returns why the session ends.
    func answer(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> WebAuthenticationError? {
        let host = webkit_authentication_request_get_host(request).map { String(cString: $0) } ?? ""
        guard let certificate else {
            webkit_authentication_request_cancel(request)
            return .clientCertificateRequested(host: host)
        }
        do { try gate.check(.clientCertificate, to: AuthenticationRequestSite.of(request)) } catch {
            webkit_authentication_request_cancel(request)
            return .secretRefused(error)
        }
        let credential: OpaquePointer
        if webkit_authentication_request_get_scheme(request) == WEBKIT_AUTHENTICATION_SCHEME_CLIENT_CERTIFICATE_REQUESTED {
            credential = certificate.certificate.withPointer { webkit_credential_new_for_certificate($0, WEBKIT_CREDENTIAL_PERSISTENCE_NONE) }
        } else {
            let isRetry = webkit_authentication_request_is_retry(request) != 0
            guard !isRetry, let pin = certificate.pin else {
                webkit_authentication_request_cancel(request)
                return .clientCertificatePINRefused(host: host, certificate: certificate.description, pinGiven: isRetry)
            }
            credential = webkit_credential_new_for_certificate_pin(pin, WEBKIT_CREDENTIAL_PERSISTENCE_NONE)
        }
        webkit_authentication_request_authenticate(request, credential)
        webkit_credential_free(credential)
        return nil
    }
}
