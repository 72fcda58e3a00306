import Foundation
internal import CWebKitGTK

/// The WebKit web contexts (each a pool of web processes and a network process) sessions run in.
///
/// Ephemeral sessions share one context and get a per-view ephemeral website data manager
/// (`is-ephemeral`): their own cookie jar, storage and cache in memory, gone with the view,
/// while the web and network processes are reused. Each persistent profile directory gets a
/// context of its own. TLS errors are fatal and downloads cancelled in every context, and every
/// context runs its web processes in WebKit's sandbox where the machine allows it (``WebProcessSandbox``).
@WebKitActor
final class WebContextsByProfile {
    static let shared = WebContextsByProfile()

    private var ephemeralContext: UnsafeMutablePointer<WebKitWebContext>?
    private var profileContexts: [String: UnsafeMutablePointer<WebKitWebContext>] = [:]
    private var registeredSchemes: [UnsafeMutablePointer<WebKitWebContext>: Set<String>] = [:]
    /// The contexts' `download-started` handlers (the contexts live as long as the process).
    private var downloadHandlers: [SignalConnection] = []

    /// The context for `websiteData`, created on first use.
    func context(for websiteData: WebAuthenticationOptions.WebsiteData) throws(WebAuthenticationError) -> UnsafeMutablePointer<WebKitWebContext> {
        switch websiteData {
        case .ephemeral:
            if let ephemeralContext { return ephemeralContext }
            // An ephemeral *context* would give all its views one shared in-memory jar; a normal
            // context gives each `is-ephemeral` view a jar of its own. The context's own data
            // manager still writes a few files (salts, HSTS): they go to a private scratch
            // directory, removed at shutdown, instead of ~/.local/share.
            let scratch = try EngineRuntime.shared.scratchDirectory()
            let manager = GObjectReference(adopting: cwk_website_data_manager_new(scratch + "/data", scratch + "/cache")!)
            let context = manager.withPointer { webkit_web_context_new_with_website_data_manager($0)! }
            downloadHandlers.append(configure(context))
            Self.startNetworkProcess(of: manager.pointer)
            ephemeralContext = context
            return context
        case .persistent(let directory):
            let path = directory.standardizedFileURL.path
            if let context = profileContexts[path] { return context }
            let manager = try Self.profileDataManager(at: path)
            let context = manager.withPointer { webkit_web_context_new_with_website_data_manager($0)! }
            downloadHandlers.append(configure(context))
            profileContexts[path] = context
            return context
        }
    }

    /// Starts the network process of the shared context's own data manager (`manager`) before any
    /// view exists, so that every view's ephemeral data manager uses it too. WebKitGTK 4.1 gives each
    /// data manager with directories a network process of its own, and an ephemeral one the process
    /// of such a manager that has one already, else a process of its own. The context's manager starts
    /// its process at the first view whatever we do, and it served nothing: with the first view's
    /// ephemeral manager asking first, every engine ran two network processes. Setting the proxy
    /// mode the manager already has (the system's) is what reaches its network process here.
    private static func startNetworkProcess(of manager: UnsafeMutablePointer<WebKitWebsiteDataManager>) {
        webkit_website_data_manager_set_network_proxy_settings(manager, WEBKIT_NETWORK_PROXY_MODE_DEFAULT, nil)
    }

    /// The website data manager of a profile directory's context.
    func dataManager(profileDirectory: URL) throws(WebAuthenticationError) -> UnsafeMutablePointer<WebKitWebsiteDataManager> {
        webkit_web_context_get_website_data_manager(try context(for: .persistent(profileDirectory: profileDirectory)))
    }

    /// Routes requests for `scheme` in `context` to the page that made them (for form posts
    /// to a custom-scheme redirect URI). Registering twice is a no-op.
    func registerRedirectScheme(_ scheme: String, in context: UnsafeMutablePointer<WebKitWebContext>) {
        guard registeredSchemes[context, default: []].insert(scheme).inserted else { return }
        webkit_web_context_register_uri_scheme(context, scheme, { request, _ in
            guard let request else { return }
            WebKitActor.assumeIsolated {
                let view = webkit_uri_scheme_request_get_web_view(request)
                if let page = LiveSignInPages.shared.page(for: view) {
                    page.redirects.receiveSchemeRequest(request, on: page)
                } else {
                    SchemeRequest.refuse(request, because: "no sign-in session is waiting for this redirect")
                }
            }
        }, nil, nil)
    }

    /// Asks pages in `context` for `languages` (its `Accept-Language`), or for the user's locale's
    /// when `languages` is empty. WebKit keeps one list per context: the last session set wins.
    func setLanguages(_ languages: [String], in context: UnsafeMutablePointer<WebKitWebContext>) {
        let tags = languages.isEmpty ? UserLanguages.from(ProcessInfo.processInfo.environment) : languages
        withCStringList(tags) { webkit_web_context_set_preferred_languages(context, constCStringList($0)) }
    }

    /// A new ephemeral context for one session, whose certificate exceptions (a CA file's
    /// verdicts: `webkit_web_context_allow_tls_certificate_for_host` reaches only a context's own
    /// data manager, never a per-view ephemeral one) end with it. Its views are not `is-ephemeral`:
    /// the context's data manager is already in memory only. The caller keeps both parts as long as its view.
    func privateEphemeralContext() -> (context: GObjectReference<UnsafeMutablePointer<WebKitWebContext>>, downloads: SignalConnection) {
        let context = GObjectReference(adopting: webkit_web_context_new_ephemeral()!)
        return (context, configure(context.pointer))
    }

    /// Forgets what is known of a private context its session let go of (its address may be reused).
    func forget(_ context: UnsafeMutablePointer<WebKitWebContext>) {
        registeredSchemes[context] = nil
    }

    /// Sandbox, cache model, fatal TLS errors, no downloads; returns the download handler's connection.
    private func configure(_ context: UnsafeMutablePointer<WebKitWebContext>) -> SignalConnection {
        WebProcessSandbox.apply(to: context)
        webkit_web_context_set_cache_model(context, WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER)
        webkit_website_data_manager_set_tls_errors_policy(webkit_web_context_get_website_data_manager(context),
                                                          WEBKIT_TLS_ERRORS_POLICY_FAIL)
        // A sign-in never downloads. Responses that would be saved are refused before this
        // (the sign-in flow's answer to `responseReceived`); whatever still starts a download (a `download`
        // link) is cancelled here, before a file is chosen, and reported to its page.
        return SignalConnection(context, .downloadStarted, handler: Self.cancelDownload)
    }

    /// `download-started`: cancels the download and reports it to its page.
    private nonisolated static let cancelDownload: CWKDownloadStartedHandler = { _, download, _ in
        // Used on this thread only, within the signal emission (assumeIsolated runs synchronously).
        guard let started = download else { return }
        nonisolated(unsafe) let download = started
        WebKitActor.assumeIsolated {
            webkit_download_cancel(download)
            let url = webkit_download_get_request(download).flatMap { webkit_uri_request_get_uri($0) }.map { String(cString: $0) } ?? ""
            guard let page = LiveSignInPages.shared.page(for: webkit_download_get_web_view(download)) else { return }
            page.receive(.downloadStarted(url: url))
        }
    }

    private static func profileDataManager(at path: String) throws(WebAuthenticationError) -> GObjectReference<UnsafeMutablePointer<WebKitWebsiteDataManager>> {
        let data = path + "/data"
        let cache = path + "/cache"
        do {
            for directory in [path, data, cache] {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw .profileUnavailable(path: path, message: error.localizedDescription)
        }
        guard access(path, R_OK | W_OK | X_OK) == 0 else {
            throw .profileUnavailable(path: path, message: String(cString: strerror(errno)))
        }
        let manager = GObjectReference(adopting: cwk_website_data_manager_new(data, cache)!)
        manager.withPointer { manager in
            let cookies = webkit_website_data_manager_get_cookie_manager(manager)
            webkit_cookie_manager_set_persistent_storage(cookies, data + "/cookies.sqlite", WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE)
        }
        return manager
    }
}

/// Finishing custom-scheme requests.
@WebKitActor
enum SchemeRequest {
    /// Ends `request` with an error so that nothing loads.
    static func refuse(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, because reason: String) {
        GLibError.withNew(domain: webkit_network_error_quark(), code: Int(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue), message: reason) {
            webkit_uri_scheme_request_finish_error(request, $0)
        }
    }
}
