import Foundation

/// How a sign-in session is shown and what it keeps. Every default is the safe one.
public struct WebAuthenticationOptions: Sendable {
    /// How the page is presented.
    public enum Presentation: Sendable, Hashable {
        /// A window a person can see and use. With no display it fails with
        /// ``WebAuthenticationError/noDisplayForWindow`` (unless ``EngineConfiguration/Display/virtual`` is chosen).
        case window(width: Int = 480, height: Int = 640)
        /// Never on screen: the page renders off screen, for scripts and tests.
        case headless
        /// Full screen for a kiosk: no decorations, no context menu, no developer tools, no
        /// downloads, no file chooser, no new windows, navigation only to the start page's host
        /// and the settings' ``KioskSettings/allowedHosts``, and the session ends as
        /// ``WebAuthenticationError/abandoned(after:)`` after ``KioskSettings/idleTimeout``
        /// without input; the page framed as the settings say. ``KioskStation`` runs visitor
        /// after visitor.
        case kiosk(_ settings: KioskSettings = KioskSettings())

        /// The settings of a kiosk presentation; `nil` for the others.
        public var kioskSettings: KioskSettings? {
            if case .kiosk(let settings) = self { settings } else { nil }
        }
    }

    /// Where cookies, local storage and cache live.
    public enum WebsiteData: Sendable, Hashable {
        /// In memory, for this session only; nothing survives it (the default).
        case ephemeral
        /// In a profile directory, kept between sessions (the person stays signed in to the
        /// provider). Clear it with ``WebAuthEngine/clearWebsiteData(profileDirectory:)``.
        case persistent(profileDirectory: URL)
    }

    /// How the page is presented. Default: a 480×640 window.
    public var presentation: Presentation = .window()
    /// How long to wait for the redirect before failing with ``WebAuthenticationError/timedOut(after:lastURL:)``. Default: 5 minutes.
    public var timeout: Duration = .seconds(300)
    /// Where website data lives. Default: ``WebsiteData/ephemeral``.
    public var websiteData: WebsiteData = .ephemeral
    /// A user agent string to send instead of WebKit's. Default: WebKit's own.
    public var userAgent: String?
    /// Extra HTTP headers sent with the first request only (never logged).
    public var additionalHeaders: [String: String] = [:]
    /// The window to be transient for and modal to: a GTK application's own, or another program's
    /// named as xdg-desktop-portal names windows (``ParentWindow/portal(_:)``). Default: none.
    public var parentWindow: ParentWindow?
    /// Text that, found in a page's address or visible text, means the provider refuses
    /// embedded web views; the session then ends with ``WebAuthenticationError/embeddedViewRefused(url:host:)``.
    /// Default: Google's `disallowed_useragent` and its "This browser or app may not be secure". Empty: no check.
    public var embeddedViewRefusalMarkers: [String] = ["disallowed_useragent", "This browser or app may not be secure"]
    /// The languages the page is asked for, most preferred first (BCP 47 tags such as `fr-CA`):
    /// its `Accept-Language` header, and the `ui_locales` of an OpenID Connect sign-in. Default:
    /// empty, the user's locale (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`) and no `ui_locales`.
    /// The languages belong to the web context, so sessions open at the same time share the last one set.
    public var languages: [String] = []
    /// The proxy the page goes through (give `SoupHTTPClient` the same one for the token
    /// request). Default: `ProxySetting/environment`.
    public var proxy: ProxySetting = .environment
    /// Certificate authorities trusted beside the system's, for a provider with an internal CA
    /// (give `SoupHTTPClient` the same file for the token request). A page whose certificate
    /// does not lead to them or to the system's still fails with ``WebAuthenticationError/tlsFailure(url:host:errors:)``.
    /// Default: none.
    public var caFile: TrustedCAFile?
    /// The certificate the page presents to a server that asks for one in the TLS handshake
    /// (mutual TLS, a smart card; give `SoupHTTPClient` the same one for the token request).
    /// With none, a server that asks ends the session with ``WebAuthenticationError/clientCertificateRequested(host:)``;
    /// it goes only to the hosts ``secretHosts`` allows. Default: none.
    public var clientCertificate: ClientCertificate?
    /// Hosts beside the start URL's that may receive the session's secrets: the
    /// ``clientCertificate``, a login script's `http_auth` password and typed values (a login
    /// script adds its own `secret_hosts`). Any other host that asks, or one that asks over plain
    /// `http` (but a loopback host), ends the session with ``WebAuthenticationError/secretRefused(_:)``,
    /// as `SecretGate` decides. Default: none.
    public var secretHosts: Set<String> = []
    /// Whether a kiosk page that asks for HTTP authentication (Basic, Digest) shows WebKit's
    /// credentials dialog; if not, the session fails with ``WebAuthenticationError/httpAuthenticationRefused(host:realm:)``.
    /// A window always shows the dialog; a headless session answers with its login script's `http_auth`.
    /// Default: false.
    public var allowsHTTPAuthentication = false
    /// The FIDO2 security keys a person in a window or kiosk may answer a page's passkey
    /// requests with (WebAuthn): ``SecurityKeySource/system`` for a USB key through libfido2
    /// (the person sees "Touch your security key", a PIN field when the key asks, and Cancel).
    /// Headless sessions ignore it: a login script's `passkey` answers there. Default: none, and
    /// a page's request gets `NotAllowedError`.
    public var securityKeys: SecurityKeySource?
    /// Records what the person does on the page as a login script (`webauth record`); see
    /// ``LoginRecorder``. Default: none.
    public var recorder: LoginRecorder?
    /// The ``SignInPool`` place whose kept web view the session uses, when ``ReusableView/lends(to:)`` allows it.
    var reusableView: (any KeptViewPlace)?

    /// The defaults.
    public init() {}
}
