import WebAuthBrokerContract

/// The `timeout` of a request: the whole of it (discovery, the page, the token exchange, every
/// other request) ends by then, as `webauth`'s `--timeout` does; `body` is cancelled at the limit.
enum RequestDeadline {
    /// `body`'s result, or ``BrokerErrorName/timedOut`` once `limit` has passed.
    static func run<T: Sendable>(within limit: Duration, _ body: @escaping @Sendable () async throws(BrokerError) -> T) async throws(BrokerError) -> T {
        let outcome = await withTaskGroup(of: Result<T, BrokerError>?.self) { group in
            group.addTask {
                do throws(BrokerError) { return .success(try await body()) } catch { return .failure(error) }
            }
            group.addTask {
                guard (try? await Task.sleep(for: limit)) != nil else { return nil }
                return .failure(BrokerError(.timedOut, "no answer within \(limit.components.seconds) s (the request's timeout)"))
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
        guard let outcome else { throw BrokerError(.cancelled, "the request was cancelled") }
        return try outcome.get()
    }
}
