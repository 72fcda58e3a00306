import Foundation
import WebAuthSupport

/// Which issuer serves a person, asked of their own host (OpenID Connect Discovery 1.0 §2,
/// WebFinger, RFC 7033): `GET /.well-known/webfinger?resource=…&rel=http://openid.net/specs/connect/1.0/issuer`.
///
/// ```swift
/// let query = try WebFingerQuery(user: "alice@example.com")   // acct:alice@example.com at example.com
/// let issuer = try await query.issuer(using: http)
/// ```
///
/// The identifier is normalised as §2.1 says: an `acct:` URI as it is; an e-mail address (user and
/// host, no port, path or query) becomes `acct:user@host`; anything else is a URL (`https://` when
/// it has no scheme), its fragment dropped. The request goes over https, as discovery's do (a URL
/// given with `http://` is refused for a host that is not loopback unless the caller allows plain
/// http); a loopback host (this machine) named without a scheme is asked over plain http, as a
/// loopback issuer may be.
public struct WebFingerQuery: Sendable, Hashable {
    /// The link relation of an OpenID Connect issuer.
    public static let issuerRelation = "http://openid.net/specs/connect/1.0/issuer"

    /// The resource asked about: `acct:alice@example.com`, or a URL.
    public let resource: String
    /// The WebFinger server: the identifier's host, with its port if it names one.
    public let host: String
    /// The scheme of the request: a URL's own, else `https`, or `http` for a loopback host.
    public let scheme: String

    /// The query for what a person typed.
    /// - Throws: ``WebFingerError/notAnIdentifier(_:)`` for an empty string, an XRI (`=`, `@`, `+`,
    ///   `$`, `!`), a scheme other than `acct`, `https` and `http`, or no host.
    public init(user input: String) throws(WebFingerError) {
        var text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        guard let first = text.first, !"=@+$!".contains(first) else { throw .notAnIdentifier(input) }
        var typedScheme: String?
        if text.lowercased().hasPrefix("acct:") {
            let account = text.dropFirst("acct:".count)
            guard let at = account.lastIndex(of: "@"), at != account.startIndex, account.index(after: at) != account.endIndex else {
                throw .notAnIdentifier(input)
            }
            (resource, host) = ("acct:" + account, String(account[account.index(after: at)...]))
        } else {
            let hasScheme = text.contains("://")
            guard let components = URLComponents(string: hasScheme ? text : "https://" + text),
                  let name = components.percentEncodedHost, !name.isEmpty else { throw .notAnIdentifier(input) }
            if hasScheme {
                typedScheme = components.scheme?.lowercased()
                guard let typedScheme, ["https", "http"].contains(typedScheme) else { throw .notAnIdentifier(input) }
            }
            host = components.port.map { "\(name):\($0)" } ?? name
            // §2.1: user and host alone (no scheme, port, path or query) is an e-mail address, an acct: URI.
            let isEmail = !hasScheme && components.user != nil && components.password == nil && components.port == nil
                && components.path.isEmpty && components.query == nil
            resource = isEmail ? "acct:" + text : hasScheme ? text : "https://" + text
        }
        scheme = typedScheme ?? (Self.isLoopback(host) ? "http" : "https")
    }

    /// The WebFinger request's URL.
    public var url: URL {
        FormURLEncoding.appending([("resource", resource), ("rel", Self.issuerRelation)],
                                  to: URL(string: "\(scheme)://\(host)/.well-known/webfinger")!)
    }

    /// Asks the host which issuer serves ``resource``: the `href` of the answer's first link of
    /// relation ``issuerRelation``. Discovery then checks that issuer as any other.
    /// - Parameters:
    ///   - allowInsecureHTTP: accept a plain `http` URL given for a host that is not loopback.
    ///   - http: the HTTP client the request goes through.
    /// - Throws: ``OpenIDConnectError/webFinger(_:)`` (``WebFingerError/insecure(url:)`` before any
    ///   request, ``WebFingerError/noIssuerLink(resource:host:)``), ``OpenIDConnectError/http(_:)``,
    ///   ``OpenIDConnectError/unexpectedResponse(url:status:contentType:snippet:)``.
    public func issuer(allowInsecureHTTP: Bool = false, using http: any HTTPClient) async throws(OpenIDConnectError) -> String {
        let url = url
        guard scheme == "https" || allowInsecureHTTP || Self.isLoopback(host) else {
            throw .webFinger(.insecure(url: URLRedaction.redactingValues(url.absoluteString)))
        }
        let response: HTTPResponse
        do { response = try await http.send(HTTPRequest(url: url, headers: ["Accept": "application/jrd+json, application/json"])) } catch {
            throw .http(error)
        }
        let document = try JSONResponse.decode(ResourceDescriptor.self, from: response, url: url)
        guard let issuer = document.links?.first(where: { $0.rel == Self.issuerRelation && $0.href?.isEmpty == false })?.href else {
            throw .webFinger(.noIssuerLink(resource: resource, host: host))
        }
        return issuer
    }

    /// Whether `host` (with a port, perhaps) is this machine.
    private static func isLoopback(_ host: String) -> Bool {
        URLComponents(string: "http://" + host)?.host.map(URIText.isLoopback(host:)) ?? false
    }

    /// The JSON Resource Descriptor (RFC 7033 §4.4), as far as issuer discovery reads it.
    private struct ResourceDescriptor: Decodable {
        struct Link: Decodable {
            let rel: String
            let href: String?
        }

        let links: [Link]?
    }
}
