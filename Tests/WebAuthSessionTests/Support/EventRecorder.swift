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

    /// How many navigation decisions have been seen so far.
    var decisionCount: Int {
        events.count { if case .navigation = $0 { true } else { false } }
    }

    /// Waits for the next navigation decision after the first `seen` ones.
    func decision(after seen: Int) async -> NavigationDecision? {
        let counter = DecisionCounter(skip: seen)
        let event = await first { counter.isNext($0) }
        if case .navigation(let decision)? = event { return decision }
        return nil
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

/// Counts navigation decisions as a predicate sees events, to find the n-th one.
private final class DecisionCounter: @unchecked Sendable {
    // @unchecked: only used inside EventRecorder's actor, one predicate call at a time.
    private var remaining: Int
    init(skip: Int) { remaining = skip }
    func isNext(_ event: WebAuthenticationEvent) -> Bool {
        guard case .navigation = event else { return false }
        if remaining == 0 { return true }
        remaining -= 1
        return false
    }
}
