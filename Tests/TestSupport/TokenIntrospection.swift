import Foundation
import OpenIDConnect
import OpenIDConnectURLSession

/// What a provider says of `token` at its introspection endpoint (RFC 7662), asked as the public
/// client `clientID`: `active`, and for an active token its `sub`, `scope`, `aud`, `exp`.
public func introspect(_ token: String, issuer: String, clientID: String = "webauth-demo") async throws -> JSONValue {
    let body = "token=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&client_id=\(clientID)"
    let response = try await URLSessionHTTPClient().send(HTTPRequest(
        method: "POST", url: URL(string: issuer + "/introspect")!, headers: ["Content-Type": "application/x-www-form-urlencoded"],
        body: Data(body.utf8)))
    return try JSONValue(parsing: String(decoding: response.body, as: UTF8.self))
}
