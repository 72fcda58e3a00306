import Foundation
import OpenIDConnect
import WebAuthNetwork
import WebAuthKeyring
import WebAuthExitStatus

/// The end of a command's `--timeout`: discovery, the JWKS, the page, the token exchange and
/// every other request share it, so the whole command ends by then, not each part separately.
package struct CommandDeadline: Sendable {
    /// The time the command was given.
    package let limit: Duration
    private let end: ContinuousClock.Instant

    /// A deadline `seconds` from now.
    package init(seconds: Int) {
        limit = .seconds(seconds)
        end = .now + limit
    }

    /// What is left of the time (zero once it has passed).
    package var remaining: Duration { max(end - .now, .zero) }

    /// The HTTP client of `network` (``NetworkSettings/http(timeout:)``), whose requests end with
    /// ``HTTPClientError/timedOut(url:after:)`` at this deadline. Its own per-request timeout is
    /// set past the deadline, so that a hung request always ends as this deadline's one-line
    /// timeout, never as libsoup's error text.
    package func http(_ network: NetworkSettings) -> any HTTPClient {
        DeadlineHTTPClient(deadline: self, base: network.http(timeout: limit + .seconds(5)))
    }
}

/// Sends each request through `base`, but gives up on it when the command's deadline passes.
private struct DeadlineHTTPClient: HTTPClient {
    package let deadline: CommandDeadline
    package let base: any HTTPClient

    package func send(_ request: HTTPRequest) async throws(HTTPClientError) -> HTTPResponse {
        let timedOut = HTTPClientError.timedOut(url: URLRedaction.redactingValues(request.url.absoluteString), after: deadline.limit)
        let remaining = deadline.remaining
        guard remaining > .zero else { throw timedOut }
        let outcome = await withTaskGroup(of: Result<HTTPResponse, HTTPClientError>?.self) { group in
            group.addTask { [base] in
                do throws(HTTPClientError) { return .success(try await base.send(request)) } catch { return .failure(error) }
            }
            group.addTask {
                try? await Task.sleep(for: remaining)
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        guard let outcome else { throw timedOut }
        return try outcome.get()
    }
}
