internal import CWebKitGTK

/// Watches a kept view (``ReusableView``) for as long as the place keeps it, and collects what its
/// pages left that no reset removes (``LastingState``). It watches the view, not each sign-in's
/// page, so that a request the network reports late (a redirect that arrives after the page
/// captured its callback and let go of the view) still counts when the place decides, after its
/// reset, whether to lend the view again.
@WebKitActor
final class LastingStateWatch {
    /// What the view's pages left so far.
    private(set) var state = LastingState()
    private var connections: [SignalConnection] = []

    /// Starts watching `view`, before any page connects its own handlers (so that this sees a
    /// request for credentials before the page answers it).
    init(_ view: UnsafeMutablePointer<WebKitWebView>) {
        connections = [
            SignalConnection(view, .resourceLoadStarted, target: self, handler: Self.resourceLoadStarted),
            SignalConnection(view, .authenticate, target: self, handler: Self.authenticate),
        ]
    }

    /// A request a page starts; its redirects are watched for as long as the resource lives.
    private nonisolated static let resourceLoadStarted: CWKResourceLoadStartedHandler = { _, resource, request, data in
        guard let watch = WeakTarget<LastingStateWatch>.from(data) else { return }
        let uri = request.flatMap { webkit_uri_request_get_uri($0) }.map { String(cString: $0) } ?? ""
        let serviceWorker = request.flatMap { webkit_uri_request_get_http_headers($0) }
            .flatMap { soup_message_headers_get_one($0, "Service-Worker") }.map { String(cString: $0) }
        if let resource { LifetimeSignal.connect(resource, .sentRequest, target: watch, handler: sentRequest) }
        WebKitActor.assumeIsolated { watch.state.requestStarted(uri: uri, serviceWorker: serviceWorker) }
    }

    /// A resource's request went out again after a redirect: the redirect's `Location`, as the server sent it.
    private nonisolated static let sentRequest: CWKSentRequestHandler = { _, _, redirectedResponse, data in
        guard let headers = redirectedResponse.flatMap({ webkit_uri_response_get_http_headers($0) }),
              let location = soup_message_headers_get_one(headers, "Location").map({ String(cString: $0) }) else { return }
        let watch = WeakTarget<LastingStateWatch>.from(data)
        WebKitActor.assumeIsolated { watch?.state.redirected(to: location) }
    }

    /// A server, a proxy or a TLS handshake asks for credentials: noted, and left to the page to answer.
    private nonisolated static let authenticate: CWKAuthenticateHandler = { _, _, data in
        let watch = WeakTarget<LastingStateWatch>.from(data)
        WebKitActor.assumeIsolated { watch?.state.authenticationAsked() }
        return 0
    }
}
