import OpenIDConnect
import SecretGate
import WebAuthn

/// Why a sign-in session did not return a callback. Each case carries what a caller needs to act.
/// The URLs it carries have their values redacted (`URLRedaction`), so a message can be shown or logged.
public enum WebAuthenticationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The person closed the window (or the page closed itself) before the redirect.
    case closedByUser
    /// The program cancelled: the calling `Task` was cancelled or ``WebAuthenticationSession/cancel()`` was called.
    case cancelled
    /// No redirect arrived within the session's timeout. `lastURL` is the page that was showing.
    case timedOut(after: Duration, lastURL: String?)
    /// A page could not be loaded. `domain`, `code` and `message` are WebKit's GLib error (the
    /// description says only `message`: the domain and code are for programs, not people).
    case loadFailed(url: String, domain: String, code: Int, message: String)
    /// A page's TLS certificate was not valid; the page was not shown.
    case tlsFailure(url: String, host: String, errors: TLSErrors)
    /// The web process that showed the page crashed or was killed.
    case webProcessTerminated(WebProcessTerminationReason)
    /// No display could be had: none is set and a private Xvfb could not be started, or GTK could
    /// not open the one given; the reason says which.
    case noDisplay(NoDisplayReason)
    /// A window or a kiosk was asked for, but there is no display a person could see it on:
    /// neither `DISPLAY` nor `WAYLAND_DISPLAY` is set (SSH, a service, CI). The engine starts no
    /// invisible X server for a person. Sign in another way (the device authorization grant,
    /// ``OpenIDConnectClient/deviceAuthorization(scopes:additionalParameters:endpoint:)``, or the system browser),
    /// render ``WebAuthenticationOptions/Presentation/headless`` for a script, or choose
    /// ``EngineConfiguration/Display/virtual`` to render windows on a private Xvfb on purpose.
    case noDisplayForWindow
    /// The redirect arrived but could not be read (duplicate parameter, broken encoding).
    case invalidCallback(RedirectCallbackError)
    /// The response was form-posted to an `https` redirect URI, whose body the engine cannot
    /// read. Use a custom-scheme or loopback redirect URI with `response_mode=form_post`.
    case formPostNotCapturable(url: String)
    /// A loopback form POST could not be received: the engine could not listen on the port.
    case loopbackListenerUnavailable(port: Int, message: String)
    /// The profile directory for persistent website data could not be used.
    case profileUnavailable(path: String, message: String)
    /// An option is not usable (the reason says which and why); nothing was shown.
    case invalidOption(InvalidOptionReason)
    /// ``WebAuthenticationSession/start()`` was called a second time.
    case alreadyStarted
    /// The engine was shut down (the program is exiting, or ``WebAuthEngine/shutdown()`` ran).
    case engineShutDown
    /// The provider refuses embedded web views (Google's `disallowed_useragent`, and others that
    /// sniff user agents); `url` is the page that said so. Sign in with OpenIDSignIn's `SystemBrowserUserAgent`
    /// (or ``OpenIDConnectClient/signInWithSystemBrowser(scopes:additionalParameters:redirectPath:browser:timeout:)``) instead.
    case embeddedViewRefused(url: String, host: String)
    /// A kiosk sign-in saw no input for its idle timeout: the visitor walked away.
    case abandoned(after: Duration)
    /// The system browser could not be opened (no `xdg-open` or `gio`, or the opener failed); the reason says why.
    case browserUnavailable(BrowserUnavailableReason)
    /// A login script's last step had run, then nothing loaded or navigated for `after` and no
    /// redirect came: a wrong password, or a page the script does not handle. `page` says what
    /// it showed, its error message first. Fix the script or its values, or allow more time
    /// with ``LoginScript/settleTimeout``.
    case pageSettled(PageSummary, after: Duration)
    /// The provider answered the authorization request (or a redirect from it) with HTTP
    /// `status` (4xx or 5xx) instead of a login page: an unknown client ID, a redirect URI it
    /// does not know, a fault of its own. `page` says what its error page showed.
    case providerErrorPage(status: Int, PageSummary)
    /// The page asked for a passkey or security key (WebAuthn), nothing here could answer (no
    /// login script's `passkey`, no security key), and the page then settled on that prompt: the
    /// sign-in cannot go on. `relyingParty` is the site the credential is for (the page's host
    /// when the request named none it may use); `pageText` is what the page says (its message,
    /// token-like runs hidden). Give the login script a `passkey`, choose another way to sign in
    /// on the provider's page (a password, a one-time code), or have the provider offer one.
    case passkeyRequested(operation: PasskeyOperation, relyingParty: String, pageText: String)
    /// The login script's virtual authenticator cannot use its credentials file (`passkey:
    /// {credentials_file}`): others can read it, it is damaged, or it cannot be read or written.
    /// The error names the file.
    case passkeyCredentialsUnusable(VirtualCredentialFileError)
    /// The provider's Content-Security-Policy (`form-action`) stopped a form the page submitted
    /// (on `page`, values redacted), most likely at its redirect to `redirectURI`: browsers apply
    /// `form-action` to a form's redirects. The provider must allow the redirect URI's scheme
    /// there (LemonLDAP::NG: `cspFormAction`, whose default `*` names network schemes only).
    case formActionBlocked(redirectURI: String, page: String)
    /// The proxy `proxy` (`host:port`) asked for credentials (HTTP 407) and refused the ones
    /// given, or (`credentialsGiven` false) none were: give the user in the proxy URL
    /// (`http://user@host:port`) and the password there or, for `webauth`, in `WEBAUTH_PROXY_PASSWORD`.
    case proxyAuthenticationFailed(proxy: String, credentialsGiven: Bool)
    /// A page on `host` asked for HTTP authentication (Basic, Digest) for `realm`, and a headless
    /// session had no credentials for it, or the server refused them (it asked again for that
    /// realm): give the right ones in the login script's `http_auth`.
    case httpAuthenticationFailed(host: String, realm: String)
    /// A kiosk page on `host` asked for HTTP authentication for `realm`; a kiosk shows no
    /// credentials dialog unless ``WebAuthenticationOptions/allowsHTTPAuthentication`` is set.
    case httpAuthenticationRefused(host: String, realm: String)
    /// `host` asked for a client certificate in the TLS handshake, and none was configured: give
    /// one in ``WebAuthenticationOptions/clientCertificate`` (`webauth`: `--client-certificate`).
    case clientCertificateRequested(host: String)
    /// `host` asked for the client certificate, whose PKCS#11 token (`certificate`) needs a PIN,
    /// and none was given (`pinGiven` false) or the token refused it: give the right one.
    case clientCertificatePINRefused(host: String, certificate: String, pinGiven: Bool)
    /// A site asked for one of the session's secrets (an HTTP-authentication password, the client
    /// certificate) that `SecretGate` does not let go there: a host that is not the provider's
    /// nor in ``WebAuthenticationOptions/secretHosts``, or plain `http`. Nothing was sent.
    case secretRefused(SecretRefusal)

    /// The person ended the sign-in (closed the window), as opposed to a failure.
    public var isUserCancellation: Bool { self == .closedByUser }

    public var description: String {
        switch self {
        case .closedByUser: "the sign-in window was closed before the sign-in finished"
        case .cancelled: "the sign-in was cancelled"
        case .timedOut(let after, let url): "no redirect within \(after.roundedForMessage) (last page: \(url ?? "none"))"
        case .loadFailed(let url, _, _, let message): "could not load \(url): \(message)"
        case .tlsFailure(let url, let host, let errors): "TLS certificate of \(host) is not valid (\(errors)); refused to show \(url)"
        case .webProcessTerminated(let reason): "the web process ended: \(reason)"
        case .noDisplay(let reason): "no display: \(reason)"
        case .noDisplayForWindow:
            "no display to show the sign-in window on (DISPLAY and WAYLAND_DISPLAY are not set, as over SSH): "
                + "sign in with the device authorization grant or the system browser, or headless for a script"
        case .invalidCallback(let error): "invalid redirect: \(error)"
        case .formPostNotCapturable(let url): "cannot read a form POST to \(url); use a custom-scheme or loopback redirect URI"
        case .loopbackListenerUnavailable(let port, let message): "cannot listen on 127.0.0.1:\(port): \(message)"
        case .profileUnavailable(let path, let message): "profile directory \(path) cannot be used: \(message)"
        case .invalidOption(let message): "invalid option: \(message)"
        case .alreadyStarted: "the session was already started"
        case .engineShutDown: "the sign-in engine has shut down"
        case .embeddedViewRefused(let url, let host): "\(host) refuses to sign in inside an embedded browser (\(url)); use the system browser"
        case .abandoned(let after): "nobody used the sign-in page for \(after): it was reset"
        case .browserUnavailable(let message): "the system browser could not be opened: \(message)"
        case .pageSettled(let page, let after): "no redirect, and the page did not change for \(after) after the login script's last step: \(page)"
        case .providerErrorPage(let status, let page): "the provider answered the authorization request with HTTP \(status): \(page)"
        case .formActionBlocked(let redirectURI, let page):
            "the provider's Content-Security-Policy (form-action) stopped the form on \(page), most likely at its redirect to "
                + "\(redirectURI): the provider must allow that redirect URI there (LemonLDAP::NG: cspFormAction)"
        case .passkeyRequested(let operation, let relyingParty, let text):
            "the page asks for a passkey (to \(operation) for \(relyingParty)) and none is configured: give the login script a "
                + "passkey (credentials_file), or choose another way to sign in (a password, a one-time code); the page says \"\(text)\""
        case .passkeyCredentialsUnusable(let error): "\(error)"
        case .proxyAuthenticationFailed(let proxy, let given):
            given ? "the proxy \(proxy) refused the user name and password" : "the proxy \(proxy) asks for a user name and password, and none were given"
        case .httpAuthenticationFailed(let host, let realm):
            "\(host) asks for a user name and password (HTTP authentication, realm \"\(realm)\") and none were given or they were "
                + "refused: give the right ones in the login script's http_auth"
        case .httpAuthenticationRefused(let host, let realm):
            "\(host) asks for a user name and password (HTTP authentication, realm \"\(realm)\"), which a kiosk does not ask a "
                + "visitor for: set allowsHTTPAuthentication to show WebKit's dialog"
        case .clientCertificateRequested(let host):
            "\(host) asks for a client certificate (mutual TLS), and none was given: configure one (webauth: --client-certificate)"
        case .secretRefused(let refusal): "\(refusal)"
        case .clientCertificatePINRefused(let host, let certificate, let given):
            given ? "the token of the client certificate \(certificate) refused the PIN (\(host) asked for the certificate)"
                : "the token of the client certificate \(certificate) needs a PIN (\(host) asked for the certificate), and none was given"
        }
    }
}

/// Why a web process ended.
public enum WebProcessTerminationReason: String, Sendable, Hashable {
    /// It crashed, or something killed it.
    case crashed
    /// It went over its memory limit.
    case exceededMemoryLimit
    /// It was ended through the API.
    case terminatedByAPI
}

/// The ways a TLS certificate can fail validation (GLib's `GTlsCertificateFlags`).
public struct TLSErrors: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// GLib's `GTlsCertificateFlags` bits.
    public let rawValue: UInt32
    /// Creates the set from GLib's flag bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Not signed by a known certificate authority (a self-signed certificate, for one).
    public static let unknownAuthority = TLSErrors(rawValue: 1 << 0)
    /// Not valid for the host that was connected to.
    public static let badIdentity = TLSErrors(rawValue: 1 << 1)
    /// Not yet valid.
    public static let notActivated = TLSErrors(rawValue: 1 << 2)
    /// Expired.
    public static let expired = TLSErrors(rawValue: 1 << 3)
    /// Revoked.
    public static let revoked = TLSErrors(rawValue: 1 << 4)
    /// Uses an insecure algorithm.
    public static let insecure = TLSErrors(rawValue: 1 << 5)
    /// Some other error.
    public static let generic = TLSErrors(rawValue: 1 << 6)

    public var description: String {
        let names: [(TLSErrors, String)] = [(.unknownAuthority, "unknown authority"), (.badIdentity, "bad identity"),
                                            (.notActivated, "not yet valid"), (.expired, "expired"),
                                            (.revoked, "revoked"), (.insecure, "insecure"), (.generic, "error")]
        let present = names.filter { contains($0.0) }.map(\.1)
        return present.isEmpty ? "none" : present.joined(separator: ", ")
    }
}
