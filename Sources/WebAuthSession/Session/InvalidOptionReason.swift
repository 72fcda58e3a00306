import Foundation
import OpenIDConnect

/// Which option could not be used, and why (``WebAuthenticationError/invalidOption(_:)-swift.enum.case``);
/// nothing was shown.
public enum InvalidOptionReason: Sendable, Hashable, CustomStringConvertible {
    /// ``WebAuthEngine/configure(_:)`` came after the engine had started with another configuration.
    case engineAlreadyStarted
    /// A site of ``EngineConfiguration/trustedNegotiateSites`` is not written `http(s)://host[:port]`.
    case negotiateSite(URL)
    /// The start URL is not `http` or `https`; `scheme` is its scheme (empty when it has none).
    case startURLScheme(String)
    /// An entry of ``WebAuthenticationOptions/additionalHeaders`` is not a valid HTTP header; `name` is its name.
    case additionalHeader(name: String)
    /// ``WebAuthenticationOptions/parentWindow`` is not a `GtkWindow`.
    case parentWindowNotAWindow
    /// Another program's X11 window, by its xdg-desktop-portal identifier, is not on this display
    /// (there is no such window, or the display is not X11).
    case parentWindowNotFound(identifier: String)
    /// Another program's Wayland export, by its identifier, cannot be imported: the display is not
    /// Wayland, or the compositor has no xdg-foreign.
    case parentWindowNotImported(identifier: String)
    /// The kiosk's accent colour is not a CSS colour GTK can read.
    case kioskAccentColor(String)
    /// The kiosk's style sheet did not load; `message` is GTK's.
    case kioskStyleSheet(message: String)
    /// The kiosk's logo `path` cannot be shown; `message` is GTK's, when it gave one.
    case kioskLogo(path: String, message: String?)
    /// The redirect path of ``OpenIDConnectClient/signInWithSystemBrowser(scopes:additionalParameters:redirectPath:browser:timeout:)`` does not start with `/`.
    case redirectPathNotAbsolute(path: String)
    /// The redirect path of ``OpenIDConnectClient/signInWithSystemBrowser(scopes:additionalParameters:redirectPath:browser:timeout:)`` makes no valid redirect URI.
    case redirectPathUnusable(path: String, error: RedirectURIError)
    /// A reason given as text alone: the error of a user agent other than the engine's and the
    /// system browser's, as ``OpenIDConnectClient`` reports it; the engine throws the cases above.
    case other(String)

    public var description: String {
        switch self {
        case .engineAlreadyStarted: "the engine has already started with another configuration; configure it before the first session"
        case .negotiateSite(let site): "a site trusted for Negotiate must be written http(s)://host[:port], not '\(site.absoluteString)'"
        case .startURLScheme(let scheme): "the start URL must be http or https, not '\(scheme)'"
        case .additionalHeader(let name): "additional header '\(name)' is not a valid HTTP header"
        case .parentWindowNotAWindow: "parentWindow is not a GtkWindow"
        case .parentWindowNotFound(let identifier): "the parent window \(identifier) is not a window on this X11 display (or the display is not X11)"
        case .parentWindowNotImported(let identifier):
            "the parent window \(identifier) cannot be used: the display is not Wayland, or the compositor has no xdg-foreign"
        case .kioskAccentColor(let accent): "the kiosk's accent colour '\(accent)' is not a colour: give a CSS colour such as #0b5cad or teal"
        case .kioskStyleSheet(let message): "the kiosk's style sheet did not load: \(message)"
        case .kioskLogo(let path, let message?): "the kiosk's logo \(path) cannot be shown (\(message)): give a PNG file"
        case .kioskLogo(let path, nil): "the kiosk's logo \(path) cannot be shown: give a PNG file"
        case .redirectPathNotAbsolute: "the redirect path must start with /"
        case .redirectPathUnusable(let path, let error): "the redirect path \(path) cannot be used: \(error)"
        case .other(let message): message
        }
    }
}
