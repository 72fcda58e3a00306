import Foundation

/// Sends the client's HTTP requests. The protocol's pieces send nothing on their own: each takes
/// one (`URLSessionHTTPClient` of OpenIDConnectURLSession, WebAuthSession's `SoupHTTPClient`, a
/// proxy, a test double, another stack), so a program that links only this module links no HTTP stack.
public protocol HTTPClient: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    /// - Throws: ``HTTPClientError`` when no response arrived.
    func send(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse
}

/// An HTTP request made by the OpenID Connect client.
public struct HTTPRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The URL.
    public var url: URL
    /// Header fields.
    public var headers: [String: String]
    /// The body, for `POST`.
    public var body: Data?

    /// A request.
    public init(method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP response.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields, by lowercased name.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// A response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }
}

/// Why no HTTP response arrived: network and TLS failures, kept apart from OAuth errors.
public enum HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server could not be reached (refused, unreachable, DNS, timed out, cut off).
    case network(url: String, message: String)
    /// The TLS handshake failed (untrusted or invalid certificate, protocol error).
    case tls(url: String, message: String)
    /// No answer came before the caller's deadline (a whole command's time limit, for one);
    /// `after` is how long the caller allowed, when it says. (A client's own
    /// per-request timeout, as `URLSessionHTTPClient`'s, stays a ``network(url:message:)`` error.)
    case timedOut(url: String, after: Duration?)
    /// The proxy `proxy` (`host:port`) asked for credentials (HTTP 407) and refused the ones
    /// given, or (`credentialsGiven` false) none were: put the user (and password) in the proxy URL.
    case proxyAuthenticationFailed(proxy: String, credentialsGiven: Bool)

    public var description: String {
        switch self {
        case .network(let url, let message): "network error talking to \(url): \(message)"
        case .tls(let url, let message): "TLS error talking to \(url): \(message)"
        case .timedOut(let url, let after): "no answer from \(url)" + (after.map { " within \($0.components.seconds) s" } ?? " in time")
        case .proxyAuthenticationFailed(let proxy, let given):
            given ? "the proxy \(proxy) refused the user name and password" : "the proxy \(proxy) asks for a user name and password, and none were given"
        }
    }
}
