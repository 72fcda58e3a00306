/// Why a page script or a wait failed.
public enum PageScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The script threw, did not parse, or WebKit could not run it. `message` is WebKit's.
    case scriptFailed(message: String)
    /// The condition did not become true in time. `url` is the page shown at the deadline.
    case timedOut(waitingFor: String, after: Duration, url: String?)
    /// The session ended (redirect captured, failed or cancelled) before the script could finish.
    case sessionEnded
    /// The page shows a captcha while the wait was on: only a person can go on. `pageText` is
    /// the page's visible text (trimmed, token-like runs hidden).
    case captchaRequired(kind: CaptchaKind, pageText: String)

    public var description: String {
        switch self {
        case .scriptFailed(let message): "page script failed: \(message)"
        case .timedOut(let condition, let after, let url): "waited \(after) for \(condition) (page: \(url ?? "none"))"
        case .sessionEnded: "the sign-in session ended"
        case .captchaRequired(let kind, let text):
            "the page asks for a \(kind) captcha, which only a person can answer (sign in as a person once, or have the "
                + "provider exempt this account or address from captchas); the page says \"\(text)\""
        }
    }
}
