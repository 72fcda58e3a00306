import OpenIDConnect

/// The answers the development provider's endpoints share: JSON, OAuth errors (RFC 6749 §5.2), and
/// a response sent back to a client's redirect URI.
extension LocalHTTPResponse {
    /// `value` as `application/json`.
    static func json(_ value: JSONValue, status: Int = 200, headers: [String: String] = [:]) -> LocalHTTPResponse {
        LocalHTTPResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: value.description)
    }

    /// An OAuth error body: `error` and, if given, `error_description`.
    static func oauthError(_ code: String, _ description: String?, status: Int = 400) -> LocalHTTPResponse {
        var body: [String: JSONValue] = ["error": .string(code)]
        if let description { body["error_description"] = .string(description) }
        return json(.object(body), status: status)
    }

    /// `pairs` sent to `uri`: in its query (a `302`), or with `form_post` as a page that posts them.
    static func toRedirectURI(_ uri: String, mode: String?, _ pairs: [(name: String, value: String)]) -> LocalHTTPResponse {
        if mode == "form_post" {
            let inputs = pairs.map { "<input type='hidden' name='\(LoginPage.escape($0.name))' value='\(LoginPage.escape($0.value))'>" }
            return .html("<!DOCTYPE html><html><body onload='document.forms[0].submit()'><form method='post' action='\(LoginPage.escape(uri))'>\(inputs.joined())</form></body></html>")
        }
        return .redirect(to: uri + (uri.contains("?") ? "&" : "?") + FormURLEncoding.encode(pairs))
    }
}
