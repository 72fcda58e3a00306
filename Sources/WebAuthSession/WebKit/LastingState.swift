import Foundation

/// What a page leaves in its view's network session that clearing the view's website data does
/// not remove (WebKitGTK 2.50), so that the view must not serve another sign-in. The one list of
/// it: each entry is a check below, and each has a test in `ReusedViewTests` that fails without it.
///
/// - HTTP credentials, which WebKit keeps for the network session and sends again, unasked, to
///   the same protection space; WebKitGTK 4.1 can neither clear them (no website-data type holds
///   them) nor show the `Authorization` header it adds. They come from:
///   - an answer to a server's or a proxy's request for them (``authenticationAsked()``);
///   - a URL that carries them (``requestStarted(uri:serviceWorker:)``): a `user:password@`
///     address of a page, a frame, an image, a style sheet, an `EventSource`, a form's action, an
///     `XMLHttpRequest`'s URL or the user and password given to its `open`; WebKit answers the server's 401 with them itself, and the
///     page sees only the final answer, with no `authenticate`;
///   - a redirect whose `Location` carries them (``redirected(to:)``): the request that follows
///     arrives with the userinfo already taken out of its URL, so only the `Location` tells.
/// - A client certificate, asked for in a TLS handshake (``authenticationAsked()``: its
///   connection and choice are the session's).
/// - A service worker: its script was fetched (`Service-Worker: script`), and its registration
///   outlives `webkit_website_data_manager_clear`.
///
/// What no check here could see: a shared worker's requests are not its page's, and reach no
/// signal of the view (one that followed a redirect to a `user:password@` `Location` left the
/// credentials unseen). A kept view has no `SharedWorker` (``ReusableView``), also tested.
///
/// A page that used HTTP authentication in any of these ways never leaves its view to the next
/// sign-in: WebKit gives no way to take the credentials out, and a view made anew costs one web
/// process start, the price of a pool that keeps no views.
struct LastingState {
    /// Whether the page left any of it.
    private(set) var isLeft = false

    /// The page was asked for credentials or a client certificate (`authenticate`).
    mutating func authenticationAsked() {
        isLeft = true
    }

    /// The page started a request for `uri` with its `Service-Worker` header (nil without one).
    mutating func requestStarted(uri: String, serviceWorker: String?) {
        if Self.carriesUserinfo(uri) || serviceWorker != nil { isLeft = true }
    }

    /// A request of the page was redirected with `location` (its `Location` header, as sent).
    mutating func redirected(to location: String) {
        if Self.carriesUserinfo(location) { isLeft = true }
    }

    /// Whether `reference` (a URL, or a `Location`'s reference, relative or not) names a user or a
    /// password. Read as leniently as a browser would, so that no spelling WebKit accepts slips by:
    /// the authority follows `//` (either slash may be a backslash), or any number of slashes after
    /// a special scheme (`http:`, `https:`, `ws:`, `wss:`, `ftp:`, `file:`), and runs to the next
    /// slash, `?` or `#`; any `@` in it is userinfo. A path, or another scheme's opaque part (a
    /// `data:` URL), has none.
    static func carriesUserinfo(_ reference: String) -> Bool {
        var rest = Substring(reference.trimmingCharacters(in: .whitespacesAndNewlines))
        let slashes: Set<Character> = ["/", "\\"]
        if let colon = rest.firstIndex(of: ":"), rest[..<colon].first?.isLetter == true,
           rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
            let scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(after: colon)...]
            guard Self.specialSchemes.contains(scheme) || rest.prefix(2).allSatisfy(slashes.contains) && rest.count >= 2 else { return false }
        } else {
            guard rest.count >= 2, rest.prefix(2).allSatisfy(slashes.contains) else { return false }
        }
        return rest.drop(while: slashes.contains).prefix { !slashes.contains($0) && $0 != "?" && $0 != "#" }.contains("@")
    }

    /// The schemes whose URLs have an authority however many slashes follow the colon (WHATWG URL).
    private static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp", "file"]
}
