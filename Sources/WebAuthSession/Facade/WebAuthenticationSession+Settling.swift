/// A page that settles: a login script has done its last step, and then nothing happens.
extension WebAuthenticationSession {
    /// Ends the session with ``WebAuthenticationError/pageSettled(_:after:)`` once the page has
    /// gone `quiet` with no load, navigation or title event, and is not loading
    /// (``SignInPage/failWhenSettled(after:)``). Calling it again restarts the watch; called
    /// before the page exists, the watch starts with the page.
    func failWhenSettled(after quiet: Duration) {
        settleWatchBeforePage = quiet
        page?.failWhenSettled(after: quiet)
    }
}

/// A page that settles between steps: a login script's `when` looks at the page once it has.
extension WebAuthenticationSession {
    /// Returns once the page has had no load, navigation or title event for `quiet` (counted from
    /// now) and is not loading, or after `timeout` from its first document (a page that never goes
    /// still is looked at then).
    /// - Throws: ``PageScriptError/sessionEnded``.
    func waitUntilSettled(quiet: Duration, timeout: Duration) async throws(PageScriptError) {
        let (page, deadline) = try await pageAndDeadline(after: timeout)
        await page.waitUntilQuiet(for: quiet, until: deadline)
        if page.hasEnded { throw .sessionEnded }
    }
}
