import Foundation
import OpenIDConnect

/// Waiting on a sign-in page: for its next page change (``PageChangeWaiters``) and for it to go
/// quiet; ``SettleWatch`` ends the session when it settles with no redirect. Nothing polls: each
/// wait sleeps until a deadline or is woken by the page.
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

    /// Returns once the page has gone `quiet` from now on, with no load, navigation or title event,
    /// and is not loading; or at `deadline`, or when the page ends. A login script's `when`
    /// looks at the page then, not at the one a click is about to leave.
    func waitUntilQuiet(for quiet: Duration, until deadline: ContinuousClock.Instant) async {
        let start = ContinuousClock.now
        while !hasEnded, ContinuousClock.now < deadline {
            let settled = max(lastActivity, start) + quiet
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
        pageChanges.add(waiter)
    }

    /// Wakes those waiting for the page to change.
    func notifyPageChange() {
        pageChanges.wakeAll()
    }
}
