import Foundation

/// A login script stopped: which step, and why. Never contains a typed value.
public struct LoginScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The failed step's position, from 1.
    public let stepNumber: Int
    /// The failed step.
    public let step: LoginStep
    /// What went wrong.
    public let reason: String
    /// The page when it went wrong: screenshot, URL, title, visible text, navigation log.
    public let report: FailureReport?
    /// The page script or wait error the step failed with, if that is why (a timeout, a captcha).
    public let pageError: PageScriptError?

    public var description: String { "step \(stepNumber) (\(step)) failed: \(reason)" }
}
