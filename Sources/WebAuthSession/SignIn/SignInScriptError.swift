/// Why the `script:` of a sign-in failed: what the script threw, by kind.
public enum SignInScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A step of a ``LoginScript`` failed: which step, why, and the page as it was.
    case loginScript(LoginScriptError)
    /// A page script or a wait that the script ran failed (a hand-written script's
    /// ``WebAuthenticationSession/waitForElement(_:timeout:)``, for example).
    case pageScript(PageScriptError)
    /// The script threw an error of its own; `description` is that error's description.
    case other(description: String)
    /// The page showed a captcha while the script waited: only a person can go on. `pageText`
    /// is what the page says (trimmed, token-like runs hidden); `report` is the page as it was,
    /// when a ``LoginScript`` step met it.
    case captchaRequired(kind: CaptchaKind, pageText: String, report: FailureReport?)

    /// What a script threw, by kind.
    init(_ error: any Error) {
        switch error {
        case let failure as LoginScriptError:
            if case .captchaRequired(let kind, let text)? = failure.pageError {
                self = .captchaRequired(kind: kind, pageText: text, report: failure.report)
            } else {
                self = .loginScript(failure)
            }
        case PageScriptError.captchaRequired(let kind, let text): self = .captchaRequired(kind: kind, pageText: text, report: nil)
        case let failure as PageScriptError: self = .pageScript(failure)
        default: self = .other(description: String(describing: error))
        }
    }

    /// The page when a ``LoginScript`` step failed (screenshot, URL, title, visible text,
    /// navigation log); `nil` for other failures.
    public var report: FailureReport? {
        switch self {
        case .loginScript(let failure): failure.report
        case .captchaRequired(_, _, let report): report
        case .pageScript, .other: nil
        }
    }

    public var description: String {
        switch self {
        case .loginScript(let failure): "\(failure)"
        case .pageScript(let failure): "\(failure)"
        case .other(let description): description
        case .captchaRequired(let kind, let text, _): "\(PageScriptError.captchaRequired(kind: kind, pageText: text))"
        }
    }
}
