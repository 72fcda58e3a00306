import Foundation
import OpenIDConnect

/// Waiting on a sign-in page: for its next page change, for it to go quiet, and for it to
/// settle with no redirect (which ends the session). Nothing polls: each wait sleeps until a
/// deadline or is woken by the page.
extension SignInPage {
    /// Calls `body` each time the deadline `deadline` reads passes, until it reads `nil` or the page
    /// is gone. It sleeps until the deadline and looks again; nothing polls.
    func wake(at deadline: @escaping @WebKitActor (SignInPage) -> ContinuousClock.Instant?,
              _ body: @escaping @WebKitActor (SignInPage) async -> Void) -> Task<Void, Never> {
        Task { [weak self] in
            while let next = self.flatMap({ deadline($0) }) {
                guard (try? await Task.sleep(until: next, clock: .continuous)) != nil, let self else { return }
                await body(self)
            }
        }
    }

    /// Ends the session with ``WebAuthenticationError/pageSettled(_:after:)`` once the page has
    /// gone `quiet` with no load, navigation or title event, and is not loading. Every event
    /// restarts the timer. Calling it again restarts the watch with the new `quiet`.
    func failWhenSettled(after quiet: Duration) {
        flow.failWhenSettled(after: quiet)
        settleWatch?.cancel()
        settleWatch = wake(at: { $0.flow.settleDeadline }) { page in
            switch page.receive(.settleCheck(at: .now, isLoading: page.isLoading)).followUp {
            case .waitForPageChange:
                await withCheckedContinuation { continuation in page.onNextPageChange { continuation.resume() } }
            case .readSettledPage(let seen):
                let summary = await page.summary(timeout: .seconds(5))
                if !Task.isCancelled { page.receive(.settledPageRead(summary, activitySeen: seen)) }
            default:
                break
            }
        }
    }

    /// Returns once the page has gone `quiet` from now on, with no load, navigation or title event,
    /// and is not loading; or at `deadline`, or when the page ends. A login script's `when`
    /// looks at the page then, not at the one a click is about to leave.
    func waitUntilQuiet(for quiet: Duration, until deadline: ContinuousClock.Instant) async {
        let start = ContinuousClock.now
        while !hasEnded, ContinuousClock.now < deadline {
            let settled = max(flow.lastActivity, start) + quiet
            if settled > .now {
                guard (try? await Task.sleep(until: min(settled, deadline), clock: .continuous)) != nil else { return }
            } else if isLoading {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let once = OneShot(continuation)
                    once.resume((), at: deadline)
                    onNextPageChange { once.resume(()) }
                }
            } else {
                return
            }
        }
    }

    /// Calls `waiter` once, at the next committed or finished load, or when the page ends.
    func onNextPageChange(_ waiter: @escaping @WebKitActor () -> Void) {
        if hasEnded { return waiter() }
        pageChangeWaiters.append(waiter)
    }

    /// Wakes those waiting for the page to change.
    func notifyPageChange() {
        let waiters = pageChangeWaiters
        pageChangeWaiters = []
        for waiter in waiters { waiter() }
    }
}
