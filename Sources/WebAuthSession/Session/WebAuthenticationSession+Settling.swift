/// A page that settles: a login script has done its last step, and then nothing happens.
extension WebAuthenticationSession {
    /// Ends the session with ``WebAuthSessionError/pageSettled(_:after:)`` once the page has
    /// gone `quiet` with no load, navigation or title event, and is not loading. Every event
    /// restarts the timer; a task sleeps until its deadline and looks again (nothing polls).
    /// Calling it again restarts the watch with the new `quiet`.
    func failWhenSettled(after quiet: Duration) {
        settleWatch?.cancel()
        noteActivity()
        settleWatch = Task { [weak self] in
            while let deadline = self.map({ $0.lastActivity + quiet }) {
                guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil,
                      let self, let page = self.page, !page.hasEnded else { return }
                guard ContinuousClock.now >= self.lastActivity + quiet else { continue }
                if page.isLoading {
                    await withCheckedContinuation { continuation in page.onNextPageChange { continuation.resume() } }
                    continue
                }
                let seen = self.lastActivity
                let summary = await page.summary(timeout: .seconds(5))
                guard !Task.isCancelled, self.lastActivity == seen else { continue }
                return self.finish(.failure(.pageSettled(summary, after: quiet)))
            }
        }
    }
}
