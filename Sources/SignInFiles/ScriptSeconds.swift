/// The seconds a login script gives a wait (`step_timeout: 2.5`, `settle_time`, `optional_timeout`,
/// `--settle-time`), made a `Duration` to the millisecond.
package enum ScriptSeconds {
    /// The longest wait a script may ask for: a day. A longer one is a slip (milliseconds written
    /// for seconds), and one past what an `Int` of milliseconds holds (`settle_time: 2.5e64`, or
    /// `.inf`) stopped the process in the conversion: the login-script fuzz target's first crash.
    package static let maximum: Double = 86_400

    /// `seconds` (truncated to the millisecond), or nil when it is not a number from 0 to ``maximum``.
    package static func duration(_ seconds: Double) -> Duration? {
        guard seconds >= 0, seconds <= maximum else { return nil }  // NaN is neither
        return .milliseconds(Int(seconds * 1000))
    }

    /// The words for a wait longer than ``maximum``, after the key or flag that gave it.
    package static let tooLong = "must be at most 86400 seconds (a day)"
}
