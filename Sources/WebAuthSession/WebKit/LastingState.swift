import Foundation

/// What a page leaves in its view's network session that clearing the view's website data does
/// not remove (WebKitGTK 2.50), so that the view must not serve another sign-in:
/// - HTTP credentials: an answer to a server's or a proxy's request for them, or a URL that
///   carries them (an `XMLHttpRequest` given a user and password, a `user:password@` address),
///   which WebKit keeps for the session and sends again without asking;
/// - a client certificate, asked for in a TLS handshake (its connection and choice are the session's);
/// - a service worker: its script was fetched (`Service-Worker: script`), and its registration
///   outlives `webkit_website_data_manager_clear`.
struct LastingState {
    /// Whether the page left any of it.
    private(set) var isLeft = false

    /// The page was asked for credentials or a client certificate (`authenticate`).
    mutating func authenticationAsked() {
        isLeft = true
    }

    /// The page started a request for `uri` with its `Service-Worker` header (nil without one).
    mutating func requestStarted(uri: String, serviceWorker: String?) {
        let carriesCredentials = URLComponents(string: uri).map { $0.user != nil || $0.password != nil } ?? false
        if carriesCredentials || serviceWorker != nil { isLeft = true }
    }
}
