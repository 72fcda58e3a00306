import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenIDConnect

/// An `HTTPClient` on Foundation's `URLSession`, the standard, maintained HTTP stack of
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
