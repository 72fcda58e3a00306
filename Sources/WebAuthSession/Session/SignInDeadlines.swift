/// A sign-in's two clocks, apart from its states: when a kiosk page without input is abandoned
/// (its idle limit after the last input) and, once watched, when a page without activity counts
/// as settled (its quiet time after the last load, navigation or title). ``SignInFlow`` moves
/// them with its events and stops asking them once it has ended.
struct SignInDeadlines: Sendable {
    /// A kiosk's time without input before it is abandoned; nil: never.
    let idleLimit: Duration?
    /// When a person last used the page.
    private(set) var lastInput: ContinuousClock.Instant
    /// When the page last showed a load, a navigation or a title.
    private(set) var lastActivity: ContinuousClock.Instant
    /// How long a watched page may stay quiet before it counts as settled; nil: not watched.
    private(set) var settleQuiet: Duration?

    /// Clocks that start `now`, the settle watch off.
    init(idleLimit: Duration?, now: ContinuousClock.Instant) {
        self.idleLimit = idleLimit
        (lastInput, lastActivity) = (now, now)
    }

    /// When the page is abandoned unless someone uses it; nil when there is no idle limit.
    var idleDeadline: ContinuousClock.Instant? { idleLimit.map { lastInput + $0 } }

    /// When the page counts as settled unless it does something; nil when not watched.
    var settleDeadline: ContinuousClock.Instant? { settleQuiet.map { lastActivity + $0 } }

    /// A person used the page `now`.
    mutating func inputArrived(at now: ContinuousClock.Instant) {
        lastInput = now
    }

    /// The page showed a load, a navigation or a title `now`.
    mutating func activity(at now: ContinuousClock.Instant) {
        lastActivity = now
    }

    /// Watches for the page to stay `quiet` from `now` on (again, with the new `quiet`, if watched).
    mutating func watchSettling(quiet: Duration, from now: ContinuousClock.Instant) {
        settleQuiet = quiet
        lastActivity = now
    }
}
