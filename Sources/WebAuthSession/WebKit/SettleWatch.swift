/// Ends a sign-in with ``WebAuthenticationError/pageSettled(_:after:)`` once its page has gone
/// quiet (the flow's ``SignInFlow/settleDeadline``) and is not loading: it sleeps until that
/// deadline, asks the flow, and waits for the next page change or reads the settled page as the
/// flow says. Nothing polls. It owns its task, from ``start(on:)`` until ``stop()``.
@WebKitActor
final class SettleWatch {
    private var task: Task<Void, Never>?

    /// Watches `page` from now on; a watch under way is replaced (the flow has the new quiet time).
    func start(on page: SignInPage) {
        task?.cancel()
        task = page.wake(at: { $0.settleDeadline }) { page in
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

    /// Stops watching.
    func stop() {
        task?.cancel()
        task = nil
    }
}
