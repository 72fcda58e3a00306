import Foundation
import OpenIDConnect

/// A navigation as WebKit's `decide-policy` or `create` signal reports it, in plain Swift.
struct NavigationRequest: Sendable, Hashable {
    /// How the navigation was triggered.
    enum Trigger: Sendable, Hashable {
        case link, formSubmission, backForward, reload, formResubmission, other
    }

    let url: String
    /// The HTTP method, when WebKit reports one (it does not for custom schemes).
    let method: String?
    let trigger: Trigger
    /// A server redirect (30x) of an earlier navigation; it keeps that navigation's trigger.
    let isRedirect: Bool
    /// The navigation would open a new window (`window.open`, `target=_blank`).
    let opensNewWindow: Bool

    /// A form submitted straight to this URL (a redirect after a form post is not one).
    var isFormSubmission: Bool { !isRedirect && (trigger == .formSubmission || trigger == .formResubmission) }
    var scheme: String { url.firstIndex(of: ":").map { url[..<$0].lowercased() } ?? "" }
}

/// What the engine does with a navigation.
enum NavigationVerdict: Sendable, Hashable {
    /// Let it load.
    case allow
    /// It is the authorization response: stop it before any request is sent, and finish.
    case capture
    /// A form submission to a custom-scheme redirect URI: let it through to the engine's own
    /// scheme handler, which reads the method and body and finishes the request itself.
    case captureThroughSchemeHandler
    /// A form POST to a loopback redirect URI: bind the engine's listener on that port and let
    /// the POST go to it, so its body can be read.
    case captureThroughLoopbackListener(port: Int)
    /// Stop it, and go on waiting.
    case refuse(NavigationDecision.RefusalReason)
    /// It is the response, but in a form the engine cannot read: stop it and fail.
    case fail(WebAuthenticationError)
}

/// Decides every navigation of a sign-in page, before any request is sent.
///
/// The rules, in order: the redirect URI (exact match, both sides normalised) is captured,
/// whatever triggered it and whichever frame; another navigation to the redirect URI's private
/// scheme, or to a loopback or `https` redirect URI's own scheme, host and port, is a near miss
/// and refused before any request leaves; new windows are refused; `http`/`https` and `about:` load; everything else (`data:`,
/// `blob:`, `file:`, `javascript:`, unknown app schemes) is refused. WebKitGTK does not tell the
/// UI process which frame a navigation is for, so `data:` is refused in iframes too. With an
/// allowlist (kiosks), an `http`/`https` navigation to any other host is refused, redirects included.
struct NavigationPolicy: Sendable {
    let redirectURI: RedirectURI
    /// Lowercased hosts a page may navigate to; `nil`: any.
    var allowedHosts: Set<String>?

    init(redirectURI: RedirectURI, allowedHosts: Set<String>? = nil) {
        self.redirectURI = redirectURI
        self.allowedHosts = allowedHosts.map { Set($0.map { $0.lowercased() }) }
    }

    func verdict(for request: NavigationRequest) -> NavigationVerdict {
        if redirectURI.matches(request.url) { return responseVerdict(for: request) }
        let nearMiss = redirectURI.kind == .customScheme
            ? redirectURI.sharesScheme(with: request.url) : redirectURI.sharesOrigin(with: request.url)
        if nearMiss { return .refuse(.redirectLookalike) }
        if request.opensNewWindow { return .refuse(.newWindow) }
        switch request.scheme {
        case "http", "https":
            if let allowedHosts, !allowedHosts.contains(URLComponents(string: request.url)?.host?.lowercased() ?? "") {
                return .refuse(.hostNotAllowed)
            }
            return .allow
        case "about":
            return .allow
        case "data", "blob":
            return .refuse(.dataURL)
        case "file":
            return .refuse(.fileURL)
        case "javascript":
            return .refuse(.javascriptURL)
        default:
            return .refuse(.unknownScheme)
        }
    }

    private func responseVerdict(for request: NavigationRequest) -> NavigationVerdict {
        let isPost = request.isFormSubmission && request.method?.uppercased() != "GET"
        switch redirectURI.kind {
        case .customScheme:
            // WebKit reports neither method nor body for custom schemes: the scheme handler sees both.
            return request.isFormSubmission ? .captureThroughSchemeHandler : .capture
        case .loopback:
            guard isPost else { return .capture }
            guard let port = URLComponents(string: request.url)?.port ?? redirectURI.port else {
                return .fail(.formPostNotCapturable(url: URLRedaction.redactingValues(request.url)))
            }
            return .captureThroughLoopbackListener(port: port)
        case .https:
            return isPost ? .fail(.formPostNotCapturable(url: URLRedaction.redactingValues(request.url))) : .capture
        }
    }
}
