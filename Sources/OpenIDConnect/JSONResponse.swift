import Foundation

/// Decoding the JSON bodies of provider endpoints, turning anything else into
/// ``OpenIDConnectError/unexpectedResponse(url:status:contentType:snippet:)`` instead of a crash.
enum JSONResponse {
    /// Decodes `response` (which must have status 200 and a JSON body) as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, url: URL) throws(OpenIDConnectError) -> T {
        guard response.status == 200, let value = try? JSONDecoder().decode(T.self, from: response.body) else {
            throw unexpected(response, url: url)
        }
        return value
    }

    /// The error for a response that is not what was expected. The snippet hides anything that
    /// looks like a token (a cut-off token response still holds one), the URL its values.
    static func unexpected(_ response: HTTPResponse, url: URL) -> OpenIDConnectError {
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ")
        return .unexpectedResponse(url: URLRedaction.redactingValues(url.absoluteString), status: response.status,
                                   contentType: response.headers["content-type"], snippet: TextRedaction.hidingTokenLikeRuns(in: text))
    }
}
