import Foundation
import OpenIDConnect

/// Every secret that crossed the development provider, in both directions: what a client must
/// never print, log or write (state, nonce, PKCE challenge and verifier, codes, tokens, ID-token
/// hints, passwords, client secrets, device codes). Tests search a client's every output for these values.
struct SecretLedger: Sendable {
    /// Parameter names whose values are secrets, in queries, form bodies, redirects and JSON.
    static let secretNames: Set<String> = [
        "state", "nonce", "code_challenge", "code_verifier", "code", "access_token", "refresh_token", "id_token",
        "id_token_hint", "token", "password", "client_secret", "device_code", "client_assertion",
    ]
    /// Values shorter than this are left out: they would match ordinary text by chance.
    static let shortestValue = 8

    private(set) var values: Set<String> = []

    /// Records the secrets in a request (query, form body, `Authorization`) and its response
    /// (the redirect's query and fragment, JSON fields, a form-post page's fields).
    mutating func record(request: LocalHTTPRequest, response: LocalHTTPResponse) {
        for encoded in [request.query, request.body] { recordFields(encoded) }
        if let authorization = request.header("Authorization"), let space = authorization.firstIndex(of: " ") {
            let credential = String(authorization[authorization.index(after: space)...])
            add(credential)
            if let basic = Data(base64Encoded: credential).map({ String(decoding: $0, as: UTF8.self) }),
               let colon = basic.firstIndex(of: ":") {
                add(String(basic[basic.index(after: colon)...]))
            }
        }
        if let location = response.headers["Location"] {
            for part in location.split(whereSeparator: { $0 == "?" || $0 == "#" }).dropFirst() { recordFields(part) }
        }
        if let json = try? JSONValue(parsing: response.body), case .object(let fields) = json {
            for (name, value) in fields where Self.secretNames.contains(name) { value.stringValue.map { add($0) } }
        }
        let body = response.body as NSString
        for match in Self.hiddenInput.matches(in: response.body, range: NSRange(location: 0, length: body.length))
        where Self.secretNames.contains(body.substring(with: match.range(at: 1))) {
            add(body.substring(with: match.range(at: 2)))
        }
    }

    /// A form-post page's `<input type='hidden' name='N' value='V'>`.
    private static let hiddenInput = try! NSRegularExpression(pattern: "name='([a-z_]+)' value='([^']*)'")

    private mutating func recordFields(_ encoded: some StringProtocol) {
        for (name, value) in (try? FormURLEncoding.decode(encoded)) ?? [] where Self.secretNames.contains(name) { add(value) }
    }

    private mutating func add(_ value: String) {
        if value.count >= Self.shortestValue { values.insert(value) }
    }
}
