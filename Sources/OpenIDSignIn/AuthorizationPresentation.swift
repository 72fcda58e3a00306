import Foundation
import OpenIDConnect

/// What an ``AuthorizationUserAgent`` shows: a URL, the redirect URI that ends it, and the
/// `state` the redirect must carry.
public struct AuthorizationPresentation: Sendable, Hashable {
    /// What the page is for.
    public enum Purpose: Sendable, Hashable {
        /// A sign-in: the authorization endpoint, or a pushed request's (RFC 9126) start URL.
        case authorization
        /// A sign-out at the provider (RP-Initiated Logout): its end-session endpoint.
        case endSession
    }

    /// The URL to show (it carries the request: treat it as a secret in logs).
    public let url: URL
    /// The redirect URI that ends the presentation, as ``AuthorizationUserAgent/redirectURI(for:)`` gave it.
    public let redirectURI: RedirectURI
    /// The `state` the redirect must carry. It is given here because the URL need not hold it: a
    /// pushed request's start URL has only `client_id` and `request_uri`. An agent that can be
    /// reached by others (a loopback listener) takes only the redirect that carries it; the
    /// client checks it again on every answer.
    public let expectedState: String
    /// What the page is for.
    public let purpose: Purpose

    /// A presentation.
    public init(url: URL, redirectURI: RedirectURI, expectedState: String, purpose: Purpose) {
        self.url = url
        self.redirectURI = redirectURI
        self.expectedState = expectedState
        self.purpose = purpose
    }
}
