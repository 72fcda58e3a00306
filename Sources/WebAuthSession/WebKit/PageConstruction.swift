import Foundation
import Logging
import OpenIDConnect
internal import CWebKitGTK

/// Everything a ``SignInPage`` is made of, built from the session's options before the page
/// runs: the first request (checked), the web context (the profile's, or a private one for a CA
/// file), the view (prewarmed or new, configured), the network answers applied to it, and the
/// presentation around it. Nothing is connected or loaded yet.
@WebKitActor
struct PageConstruction {
    let request: GObjectReference<UnsafeMutablePointer<WebKitURIRequest>>
    let view: GObjectReference<UnsafeMutablePointer<WebKitWebView>>
    let presentation: any PagePresentation
    let networkAnswers: PageNetworkAnswers
    /// The ephemeral session's own web context when it trusts a CA file (see ``WebContextsByProfile/privateEphemeralContext()``).
    let privateContext: (context: GObjectReference<UnsafeMutablePointer<WebKitWebContext>>, downloads: SignalConnection)?
    /// The pool's place the view is borrowed from, to be given back when the page closes.
    let reusableView: ReusableView?

    /// Builds the parts for a sign-in at `startURL` under `policy` with `options`.
    /// - Throws: ``WebAuthenticationError/noDisplay(_:)`` and the others of ``GTKEnvironment/ready(forPerson:)``;
    ///   ``WebAuthenticationError/invalidOption(_:)`` for a start URL, header or parent window that cannot be used.
    init(startURL: URL, policy: NavigationPolicy, options: WebAuthenticationOptions, logger: Logger) throws(WebAuthenticationError) {
        try GTKEnvironment.ready(forPerson: options.presentation != .headless)
        request = try Self.firstRequest(startURL, headers: options.additionalHeaders)
        if let parent = options.parentWindow, !parent.isUsable {
            throw .invalidOption(.parentWindowNotAWindow)
        }
        // The presentation's settings (a kiosk's style) are checked before anything is made.
        let wrapping = try PresentationMakers.shared.wrapping(for: options)
        let isPrivate = options.caFile != nil && options.websiteData == .ephemeral
        privateContext = isPrivate ? WebContextsByProfile.shared.privateEphemeralContext() : nil
        let context: UnsafeMutablePointer<WebKitWebContext>
        if let privateContext { context = privateContext.context.pointer } else {
            context = try WebContextsByProfile.shared.context(for: options.websiteData)
        }
        WebContextsByProfile.shared.setLanguages(options.languages, in: context)
        if policy.redirectURI.kind == .customScheme {
            WebContextsByProfile.shared.registerRedirectScheme(policy.redirectURI.scheme, in: context)
        }
        let place = ReusableView.lends(to: options) ? options.reusableView as? ReusableView : nil
        let lent = place?.lend()
        reusableView = lent == nil ? nil : place
        if let lent {
            view = GObjectReference(retaining: lent)
        } else {
            let prewarmed = isPrivate ? nil : PrewarmedView.shared.take(in: context, for: options)
            view = prewarmed ?? GObjectReference(sinking: Self.makeView(in: context, perViewData: !isPrivate, options: options))
        }
        Self.configure(view.pointer, options: options)
        networkAnswers = PageNetworkAnswers(startURL: startURL, options: options, redirectURI: policy.redirectURI, logger: logger)
        networkAnswers.apply(to: view.pointer)
        presentation = try wrapping(view.pointer)
    }

    /// The request for `url` with `headers`, which must be valid HTTP header fields.
    private static func firstRequest(_ url: URL, headers: [String: String]) throws(WebAuthenticationError)
        -> GObjectReference<UnsafeMutablePointer<WebKitURIRequest>> {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidOption(.startURLScheme(url.scheme ?? ""))
        }
        for (name, value) in headers {
            let isToken = !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains($0) }
            guard isToken, !value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
                throw .invalidOption(.additionalHeader(name: name))
            }
        }
        let request = GObjectReference(adopting: webkit_uri_request_new(url.absoluteString)!)
        let fields = webkit_uri_request_get_http_headers(request.pointer)
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            soup_message_headers_append(fields, name, value)
        }
        return request
    }

    /// A new view. A headless one renders without GPU compositing: there it buys nothing and
    /// costs a compositor thread, a GL rasteriser (llvmpipe under Xvfb) and about 60 ms at each
    /// form post. Not once views are prewarmed, which keep it: without it they leaked, and views
    /// of both kinds side by side were slower than either (bench/NOTES.md). A page a person sees
    /// keeps WebKit's default: a captcha may need WebGL.
    /// `perViewData`: an ephemeral session's view in the shared context gets website data of its own.
    private static func makeView(in context: UnsafeMutablePointer<WebKitWebContext>, perViewData: Bool,
                                 options: WebAuthenticationOptions) -> UnsafeMutablePointer<WebKitWebView> {
        let view = cwk_web_view_new(context, options.websiteData == .ephemeral && perViewData ? 1 : 0)!
        if options.presentation == .headless, !PrewarmedView.shared.isEnabled {
            webkit_settings_set_hardware_acceleration_policy(webkit_web_view_get_settings(view), WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
        }
        return view
    }

    /// The view's settings: the user agent asked for, no developer tools, no console on stdout,
    /// `window.open` let through to the `create` signal, where the policy sees it (and refuses the
    /// window), and no Cross-Origin-Opener-Policy.
    ///
    /// COOP (`same-origin`, which Django and large providers send on every page) puts a page in a
    /// browsing context group of its own: a cross-origin window that opened it, or that it opens,
    /// loses its reference to it (no `postMessage`, navigation or frame counting across them), and
    /// WebKit moves the page into a new web process so that such a window cannot read its memory
    /// either. A sign-in view has no such window: the engine makes it (nothing opened it) and refuses
    /// every window its pages open (`create`). So the swap isolates the page from nothing, and cost
    /// each sign-in a web process start (125–280 ms measured, bench/NOTES.md) and a kept view its
    /// process. What one sign-in leaves for the next in a kept view is taken out by its reset
    /// (``ReusableView``), as it is for every provider that sends no COOP. Given up with it:
    /// `crossOriginIsolated` (COOP with COEP), which a sign-in page has no use for.
    private static func configure(_ view: UnsafeMutablePointer<WebKitWebView>, options: WebAuthenticationOptions) {
        let settings = webkit_web_view_get_settings(view)
        if let userAgent = options.userAgent { webkit_settings_set_user_agent(settings, userAgent) }
        webkit_settings_set_enable_developer_extras(settings, 0)
        webkit_settings_set_javascript_can_open_windows_automatically(settings, 1)
        webkit_settings_set_enable_write_console_messages_to_stdout(settings, 0)
        WebKitFeatures.switchOff(["CrossOriginOpenerPolicy"], in: settings!)
    }
}
