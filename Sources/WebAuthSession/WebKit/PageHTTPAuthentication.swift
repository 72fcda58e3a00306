import Foundation
import OpenIDConnect
internal import CWebKitGTK
import SecretGate

/// How a page answers a server's own request for HTTP authentication (`401`, Basic or Digest):
/// a login script's credentials answer it once per realm, and only where `SecretGate` lets
/// the password go (the sign-in's host or `secret_hosts`, over https or to a loopback host); a
/// headless page with none fails; a window shows WebKit's own credentials dialog; a kiosk
/// refuses unless its options allow it.
@WebKitActor
struct PageHTTPAuthentication {
    /// What a request gets, decided by ``handle(_:)``.
    enum Decision {
        /// WebKit's default: its GTK credentials dialog, for `realm` at `host`.
        case webKitDialog(host: String, realm: String)
        /// Answered now, or kept until the login script says what answers it.
        case handled
        /// Cancelled: the session ends with this error.
        case failed(WebAuthenticationError)
    }

    /// What the login script gave: nothing yet, no credentials, or credentials.
    private enum Answer {
        case undecided, none, credential(HTTPCredential)
    }

    private let presentation: WebAuthenticationOptions.Presentation
    /// The sign-in's own host and ``WebAuthenticationOptions/secretHosts``.
    private let startURL: URL
    private let secretHosts: Set<String>
    private let allowsDialog: Bool
    private var answer = Answer.undecided
    /// `host:port realm` of each realm answered, so a second request for one is a refusal.
    private var answeredRealms: Set<String> = []
    /// A headless page's requests that came before the login script said what answers them.
    private var waiting: [GObjectReference<UnsafeMutablePointer<WebKitAuthenticationRequest>>] = []

    init(startURL: URL, options: WebAuthenticationOptions) {
        self.startURL = startURL
        secretHosts = options.secretHosts
        presentation = options.presentation
        allowsDialog = options.allowsHTTPAuthentication
    }

    /// Decides what `request` (a server's, not a proxy's) gets, answering it if it can.
    mutating func handle(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> Decision {
        let host = webkit_authentication_request_get_host(request).map { String(cString: $0) } ?? ""
        let realm = webkit_authentication_request_get_realm(request).map { String(cString: $0) } ?? ""
        switch presentation {
        case .kiosk where !allowsDialog:
            webkit_authentication_request_cancel(request)
            return .failed(.httpAuthenticationRefused(host: host, realm: realm))
        case .headless:
            break
        case .window, .kiosk:
            guard case .credential = answer else { return .webKitDialog(host: host, realm: realm) }
        }
        switch answer {
        case .undecided:
            waiting.append(GObjectReference(retaining: request))
            return .handled
        case .none:
            webkit_authentication_request_cancel(request)
            return .failed(.httpAuthenticationFailed(host: host, realm: realm))
        case .credential(let credential):
            let key = "\(host):\(webkit_authentication_request_get_port(request)) \(realm)"
            guard webkit_authentication_request_is_retry(request) == 0, answeredRealms.insert(key).inserted else {
                webkit_authentication_request_cancel(request)
                return .failed(.httpAuthenticationFailed(host: host, realm: realm))
            }
            let gate = SecretGate(providerURL: startURL, secretHosts: secretHosts.union(credential.secretHosts))
            do { try gate.check(.httpAuthenticationPassword(realm: realm), to: AuthenticationRequestSite.of(request)) } catch {
                webkit_authentication_request_cancel(request)
                return .failed(.secretRefused(error))
            }
            let webKitCredential = webkit_credential_new(credential.user, credential.password, WEBKIT_CREDENTIAL_PERSISTENCE_FOR_SESSION)
            webkit_authentication_request_authenticate(request, webKitCredential)
            webkit_credential_free(webKitCredential)
            return .handled
        }
    }

    /// Records what the login script gives (nil: nothing) and decides the requests kept until now;
    /// returns the first failure among them.
    mutating func answer(with credential: HTTPCredential?) -> WebAuthenticationError? {
        answer = credential.map(Answer.credential) ?? .none
        let kept = waiting
        waiting = []
        var failure: WebAuthenticationError?
        for request in kept {
            if case .failed(let error) = handle(request.pointer), failure == nil { failure = error }
        }
        return failure
    }
}
