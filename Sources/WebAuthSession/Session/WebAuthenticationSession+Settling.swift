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
