import DevProvider
import Foundation
import OpenIDConnect
import Testing

/// A way a page can send the browser to the redirect URI.
enum RedirectWay: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case http302, loginPostThen302, javascriptLocation, metaRefresh, formGet, formPost, windowOpen, targetBlank, iframe

    var testDescription: String { rawValue }

    /// Form submissions put the parameters in the query (GET) or body (POST), never in a fragment.
    var isForm: Bool { self == .formGet || self == .formPost }

    /// Where the parameters arrive for this way.
    func source(fragment: Bool) -> RedirectCallback.Source {
        self == .formPost ? .formPost : (fragment ? .fragment : .query)
    }

    /// A page on `site` that reaches `redirect` with `parameters` this way.
    func startURL(on site: TestSite, redirect: String, parameters: [(name: String, value: String)], fragment: Bool = false) -> URL {
        let target = redirect + (fragment ? "#" : "?") + FormURLEncoding.encode(parameters)
        switch self {
        case .http302:
            return site.serve(.redirect(to: target))
        case .loginPostThen302:
            // What providers do: the login form posts to the server, which answers with a 302.
            let login = site.serve(.redirect(to: target))
            return site.page(body: "<form method='post' action='\(html(login.absoluteString))'><input name='password' value='pw'></form><script>document.forms[0].submit()</script>")
        case .javascriptLocation:
            return site.page(body: "<script>location.href = \(js(target));</script>")
        case .metaRefresh:
            return site.page(head: "<meta http-equiv='refresh' content='0;url=\(html(target))'>", body: "redirecting")
        case .formGet, .formPost:
            let inputs = parameters.map { "<input type='hidden' name='\(html($0.name))' value='\(html($0.value))'>" }.joined()
            let method = self == .formGet ? "get" : "post"
            return site.page(body: "<form method='\(method)' action='\(html(redirect))'>\(inputs)</form><script>document.forms[0].submit()</script>")
        case .windowOpen:
            return site.page(body: "<script>window.open(\(js(target)));</script>")
        case .targetBlank:
            return site.page(body: "<a id='go' target='_blank' href='\(html(target))'>continue</a><script>document.getElementById('go').click()</script>")
        case .iframe:
            return site.page(body: "<iframe src='\(html(target))'></iframe>")
        }
    }
}

/// A JavaScript string literal.
func js(_ string: String) -> String { JSONValue.string(string).description }

/// Text escaped for an HTML attribute or element.
func html(_ string: String) -> String {
    string.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "'", with: "&#39;")
        .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
}
