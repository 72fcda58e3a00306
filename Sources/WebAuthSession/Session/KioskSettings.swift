import Foundation

/// Everything a kiosk is set up with, in one value: where its pages may go, how long a visitor
/// may stay idle, and what it shows around its sign-in page and how it looks (the kiosk bar,
/// the idle warning, the touch keyboard, its language, text size and branding). Used by
/// ``KioskStation`` (its ``KioskStation/settings``) and by a
/// ``WebAuthenticationOptions/Presentation/kiosk(_:)`` session. Every part is on by default.
public struct KioskSettings: Sendable, Hashable {
    /// Hosts besides the start page's that pages may go to (an identity provider it federates
    /// to). Default: none.
    public var allowedHosts: [String] = []
    /// How long a page may go without input before the session ends as
    /// ``WebAuthenticationError/abandoned(after:)``. Default: 2 minutes.
    public var idleTimeout: Duration = .seconds(120)
    /// Whether a bar shows above the page: the provider's host and whether its connection is
    /// secure, load progress, text size (A− / A+) and a large "Start over" button that ends the
    /// visitor's session (as Escape does). Default: shown.
    public var showsBar = true
    /// How long before the idle reset a "Still there?" overlay counts down; any touch, click or
    /// key dismisses it. `nil`: no warning. Default: 15 seconds.
    public var idleWarning: Duration? = .seconds(15)
    /// Whether an on-screen keyboard shows while a text field of the page has focus, for a touch
    /// screen without a keyboard. It types real key events into the page. Default: shown.
    public var touchKeyboard = true
    /// The language of the kiosk's own words (start screen, bar, warning, keyboard): `"en"` or
    /// `"fr"`. `nil`: the first of `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG` that is set;
    /// English when none names a language the kiosk speaks. When set, the provider's page is
    /// asked for it too (`Accept-Language`, `ui_locales`). Default: `nil`.
    public var language: String?
    /// The page's text size (WebKit's zoom level) a visitor starts with; A− and A+ change it by
    /// a tenth. Default: 1.
    public var zoom = 1.0
    /// The deployment's name, on the start screen and the bar. Default: none.
    public var title: String?
    /// A PNG logo shown on the start screen and the bar (scaled to fit). Default: none.
    public var logo: URL?
    /// The colour of the kiosk's buttons and progress, a CSS colour (`"#0b5cad"`, `"teal"`).
    /// Default: `nil`, the GTK theme's.
    public var accentColor: String?

    /// The defaults.
    public init() {}

    /// The defaults with `allowedHosts` and `idleTimeout`.
    public init(allowedHosts: [String], idleTimeout: Duration = .seconds(120)) {
        (self.allowedHosts, self.idleTimeout) = (allowedHosts, idleTimeout)
    }
}
