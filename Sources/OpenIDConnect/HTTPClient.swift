import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the client's HTTP requests. Inject your own (a proxy, a test double, another stack);
/// the default is ``URLSessionHTTPClient``.
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
    /// `after` is how long the caller allowed, when it says. (`URLSessionHTTPClient`'s own
    /// per-request timeout stays a ``network(url:message:)`` error.)
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

/// The default ``HTTPClient``: Foundation's `URLSession`, the standard, maintained HTTP stack of
/// Swift on Linux (libcurl underneath), with no cookies, no cache and redirects not followed
/// (an OAuth endpoint that redirects is answering, not moving).
public final class URLSessionHTTPClient: HTTPClient {
    private let session: URLSession
    private let delegate = NoRedirects()

    /// A client with its own ephemeral session; `timeout` bounds each request.
    public init(timeout: Duration = .seconds(30)) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.timeoutIntervalForRequest = Double(timeout.components.seconds)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    public func send(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                throw HTTPClientError.network(url: request.url.absoluteString, message: "not an HTTP response")
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as HTTPClientError {
            throw error
        } catch let error as URLError {
            let isTLS = [.secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
                         .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
                         .clientCertificateRequired].contains(error.code)
            let message = error.localizedDescription
            throw isTLS ? .tls(url: request.url.absoluteString, message: message) : .network(url: request.url.absoluteString, message: message)
        } catch {
            throw .network(url: request.url.absoluteString, message: String(describing: error))
        }
    }

    /// Refuses every redirect. (swift-corelibs-foundation calls only the completion-handler form
    /// of this delegate method; without it, a redirect to a custom-scheme URI is followed as a
    /// relative path on the same host.)
    private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
            completionHandler(nil)
        }
    }
}
