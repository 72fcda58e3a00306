import WebAuthSession

/// Collects a session's events and lets a test wait for one (event-driven, no sleeping).
actor EventRecorder {
    private(set) var events: [WebAuthenticationEvent] = []
    private var waiters: [(predicate: @Sendable (WebAuthenticationEvent) -> Bool, continuation: CheckedContinuation<WebAuthenticationEvent?, Never>)] = []
    private var ended = false

    init(_ session: WebAuthenticationSession) {
        let events = session.events
        Task { [weak self] in
            for await event in events { await self?.record(event) }
            await self?.end()
        }
    }

    /// The first event matching `predicate` (already seen or still to come); `nil` if the session ends first.
    func first(where predicate: @escaping @Sendable (WebAuthenticationEvent) -> Bool) async -> WebAuthenticationEvent? {
        if let seen = events.first(where: predicate) { return seen }
        if ended { return nil }
        return await withCheckedContinuation { waiters.append((predicate, $0)) }
    }

    /// Every event of the session, once it has ended (its event stream finished).
    func all() async -> [WebAuthenticationEvent] {
        if !ended { _ = await first { _ in false } }
        return events
    }

    /// The navigation decisions of the session, once it has ended.
    func allDecisions() async -> [NavigationDecision] {
        await all().compactMap { if case .navigation(let decision) = $0 { decision } else { nil } }
    }

    /// Waits for the first finished page load.
    func firstLoadFinished() async -> WebAuthenticationEvent? {
        await first { if case .loadFinished = $0 { true } else { false } }
    }

    private func record(_ event: WebAuthenticationEvent) {
        events.append(event)
        let (matched, waiting) = waiters.reduce(into: ([CheckedContinuation<WebAuthenticationEvent?, Never>](), [(predicate: @Sendable (WebAuthenticationEvent) -> Bool, continuation: CheckedContinuation<WebAuthenticationEvent?, Never>)]())) {
            if $1.predicate(event) { $0.0.append($1.continuation) } else { $0.1.append($1) }
        }
        waiters = waiting
        for continuation in matched { continuation.resume(returning: event) }
    }

    private func end() {
        ended = true
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
        waiters = []
    }
}
