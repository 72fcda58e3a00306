import Foundation
import OpenIDConnect
internal import CWebKitGTK

/// Redirects a sign-in page cannot show: a request to the custom redirect scheme (a form
/// submission the flow let through, or a resource it refuses), and a form POST to a loopback
/// redirect URI, which a listener of its own receives. It owns that listener, from the flow's
/// asking for it until ``stop()``; what arrives goes to the page's flow.
@WebKitActor
final class RedirectWatch {
    /// The listener for a form POST to a loopback redirect URI, once the flow asks for it.
    private var loopbackListener: LoopbackRedirectListener?

    /// A request to `page`'s custom redirect scheme: the form submission the flow let through, or
    /// a page resource (`<img>`, `fetch`, XHR), which is answered with an error and logged.
    func receiveSchemeRequest(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, on page: SignInPage) {
        let url = String(cString: webkit_uri_scheme_request_get_uri(request))
        guard page.receive(.schemeRequested(url: url)).followUp == .readSchemeRequest else {
            return SchemeRequest.refuse(request, because: "not a navigation to the redirect URI")
        }
        let method = webkit_uri_scheme_request_get_http_method(request).map { String(cString: $0) }
        var body: String?
        if method?.uppercased() == "POST", let stream = webkit_uri_scheme_request_get_http_body(request) {
            body = GObjectReference(adopting: stream).withPointer { GLibStreams.readText($0, limit: 1 << 20) }
            if body == nil {
                SchemeRequest.refuse(request, because: "unreadable form body")
                page.fail(.invalidCallback(.malformedEncoding(.formPost)))
                return
            }
        }
        SchemeRequest.refuse(request, because: "captured by WebAuthSession")
        page.receive(.redirectReceived(url: url, formBody: body))
    }

    /// Starts the listener for a form POST to `page`'s loopback redirect URI on `port`; returns
    /// false (the session has failed) if the port cannot be had.
    func listenForFormPost(port: Int, on page: SignInPage) -> Bool {
        guard loopbackListener == nil else { return true }
        let redirectURI = page.redirectURI
        do {
            loopbackListener = try LoopbackRedirectListener(
                host: redirectURI.host ?? "127.0.0.1", port: port, path: redirectURI.path, methods: ["POST"], reply: .noContent
            ) { [weak page] request in
                page?.receive(.formPostReceived(body: request.body)).policy == .use
            }
            return true
        } catch {
            page.fail(error)
            return false
        }
    }

    /// Stops the listener, if there is one; a form POST that arrives later finds no one.
    func stop() {
        loopbackListener = nil
    }
}
