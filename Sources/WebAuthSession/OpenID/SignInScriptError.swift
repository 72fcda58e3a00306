/// Why the `script:` of a sign-in failed: what the script threw, by kind.
public enum SignInScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A step of a ``LoginScript`` failed: which step, why, and the page as it was.
    case loginScript(LoginScriptError)
    /// A page script or a wait that the script ran failed (a hand-written script's
    /// ``WebAuthenticationSession/waitForElement(_:timeout:)``, for example).
    case pageScript(PageScriptError)
    /// The script threw an error of its own; `description` is that error's description.
    case other(description: String)

    /// What a script threw, by kind.
    init(_ error: any Error) {
        switch error {
        case let failure as LoginScriptError: self = .loginScript(failure)
        case let failure as PageScriptError: self = .pageScript(failure)
        default: self = .other(description: String(describing: error))
        }
    }

    /// The page when a ``LoginScript`` step failed (screenshot, URL, title, visible text,
    /// navigation log); `nil` for other failures.
    public var report: FailureReport? {
        if case .loginScript(let failure) = self { failure.report } else { nil }
    }

    public var description: String {
        switch self {
        case .loginScript(let failure): "\(failure)"
        case .pageScript(let failure): "\(failure)"
        case .other(let description): description
        }
    }
}
