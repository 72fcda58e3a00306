import OpenIDConnect

/// What shows the provider's page to the person and brings back the redirect: the one seam
/// between ``OpenIDClient``'s flow and a browser (AppAuth's `OIDExternalUserAgent`).
///
/// ``OpenIDClient`` builds the request, asks the agent which redirect URI it will carry
/// (``redirectURI(for:)``: the system browser picks its loopback port there, before a pushed
/// request sends it), then hands it the URL to present with the `state` the answer must carry
/// (``present(_:)``), and checks, exchanges and validates whatever comes back. Conformers:
/// ``SystemBrowserUserAgent`` (the person's browser, RFC 8252), WebAuthSession's
/// `WebAuthenticationUserAgent` (the embedded WebKit engine: popup, kiosk, headless, scripts), or
/// your own (a test's double).
///
/// Cancelling the task that awaits ``present(_:)`` ends the presentation with
/// ``AuthorizationUserAgentError/cancelled``; how long an agent waits is its own setting, after
/// which it throws ``AuthorizationUserAgentError/timedOut(after:lastURL:)``.
public protocol AuthorizationUserAgent: Sendable {
    /// The languages the page is shown in, most preferred first; ``OpenIDClient`` sends them as
    /// `ui_locales` unless the request has its own. Default: none.
    var languages: [String] { get }

    /// The redirect URI the request will carry, given the client's registered one: called once
    /// per presentation, before the request is built. Default: `registered`.
    /// - Throws: ``AuthorizationUserAgentError`` when the agent cannot receive a redirect (a port
    ///   it cannot bind, a path it cannot use).
    func redirectURI(for registered: RedirectURI) async throws(AuthorizationUserAgentError) -> RedirectURI

    /// Shows `presentation`'s URL and returns the redirect to its redirect URI.
    /// - Throws: ``AuthorizationUserAgentError``.
    func present(_ presentation: AuthorizationPresentation) async throws(AuthorizationUserAgentError) -> RedirectCallback

    /// Deletes what the agent keeps of the person's sessions (cookies, storage), after a sign-out
    /// that asked for it. Default: nothing, for an agent that keeps nothing of its own.
    /// - Throws: ``AuthorizationUserAgentError``.
    func clearWebsiteData() async throws(AuthorizationUserAgentError)
}

extension AuthorizationUserAgent {
    /// No languages of its own.
    public var languages: [String] { [] }

    /// The registered redirect URI, unchanged.
    public func redirectURI(for registered: RedirectURI) async throws(AuthorizationUserAgentError) -> RedirectURI { registered }

    /// Nothing to delete.
    public func clearWebsiteData() async throws(AuthorizationUserAgentError) {}
}
