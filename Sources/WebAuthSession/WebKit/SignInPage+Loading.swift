import Foundation
import OpenIDConnect
internal import CWebKitGTK

/// What a sign-in page does as its documents load: the flow hears of each commit and finish,
/// the presentation shows the host, its connection, progress and title, and a finished page is
/// read for a provider refusing embedded views when the flow asks.
extension SignInPage {
    func loadChanged(_ event: WebKitLoadEvent) {
        guard let view else { return }
        let rawURL = webkit_web_view_get_uri(view).map { String(cString: $0) } ?? ""
        let url = URLRedaction.redactingValues(rawURL)
        let host = URLComponents(string: rawURL)?.host ?? ""
        switch event {
        case WEBKIT_LOAD_STARTED:
            receive(.loadStarted(url: rawURL))
            emit(.loadStarted(url: url))
        case WEBKIT_LOAD_REDIRECTED:
            receive(.loadStarted(url: rawURL))
            emit(.loadRedirected(url: url))
        case WEBKIT_LOAD_COMMITTED:
            passkeys.documentCommitted(uri: rawURL)
            receive(.loadCommitted(errorStatus: Self.errorStatus(of: view)))
            let tls = networkAnswers.tlsState(of: view)
            presentation?.pageCommitted(host: host, tls: tls)
            emit(.loadCommitted(url: url, host: host, tls: tls))
            notifyPageChange()
        case WEBKIT_LOAD_FINISHED:
            emit(.loadFinished(url: url))
            notifyPageChange()
            receive(.loadFinished)
        default:
            break
        }
    }

    /// Reports a failed load, then hands it to the flow (which ends the sign-in unless the
    /// engine caused the failure).
    func loadFailed(_ failure: LoadFailure) {
        emit(.loadFailed(url: URLRedaction.redactingValues(failure.url), reason: "\(failure.domain) \(failure.code)",
                         ignored: ignores(failure)))
        receive(.loadFailed(failure))
    }

    func progressChanged() {
        guard let view else { return }
        let progress = webkit_web_view_get_estimated_load_progress(view)
        presentation?.show(progress: progress)
        emit(.progress(progress))
    }

    func titleChanged() {
        guard let view else { return }
        let title = webkit_web_view_get_title(view).map { String(cString: $0) } ?? ""
        presentation?.show(title: title)
        emit(.titleChanged(title))
    }

    /// Whether the view is loading a page now.
    var isLoading: Bool {
        view.map { webkit_web_view_is_loading($0) != 0 } ?? false
    }

    /// Reads the page for any of `markers` (the provider refusing embedded views) and tells the flow.
    func checkForEmbeddedViewRefusal(_ markers: [String]) {
        guard let view else { return }
        let rawURL = webkit_web_view_get_uri(view).map { String(cString: $0) } ?? ""
        let (url, host) = (URLRedaction.redactingValues(rawURL), URLComponents(string: rawURL)?.host ?? "")
        let script = "location.href + '\\n' + (document.body ? document.body.innerText.slice(0, 50000) : '')"
        JavaScriptBridge.evaluate(script, in: view, world: JavaScriptBridge.helperWorld) { [weak self] result in
            guard let self else { return }
            if case .success(.string(let text)) = result, markers.contains(where: { text.contains($0) }) {
                self.fail(.embeddedViewRefused(url: url, host: host))
            } else {
                self.receive(.embeddedViewAccepted)
            }
        }
    }

    /// The HTTP status of the committed page's response if it is an error (4xx, 5xx).
    private static func errorStatus(of view: UnsafeMutablePointer<WebKitWebView>) -> Int? {
        guard let resource = webkit_web_view_get_main_resource(view), let response = webkit_web_resource_get_response(resource) else {
            return nil
        }
        let status = Int(webkit_uri_response_get_status_code(response))
        return status >= 400 ? status : nil
    }
}
