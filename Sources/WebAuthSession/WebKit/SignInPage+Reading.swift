import Foundation
import OpenIDConnect
internal import CWebKitGTK

/// What the page shows now, read in the engine's isolated world, each read given up after its
/// timeout (a hung web process never holds a failure back).
extension SignInPage {
    /// The page's title, redacted URL and error message (``PageSummary``).
    func summary(timeout: Duration) async -> PageSummary {
        let read = await evaluate(PageSummary.script, timeout: timeout)
        return read.flatMap(PageSummary.init) ?? PageSummary(url: currentURL ?? "", title: currentTitle, message: "")
    }

    /// A ``FailureReport`` of the page as it is: its redacted URL, title, visible text and a
    /// screenshot, with `navigationLog`. Parts that cannot be had (nothing committed yet, the
    /// view gone) are left out.
    func failureReport(step: String? = nil, reason: String? = nil, navigationLog: [NavigationLogEntry], timeout: Duration) async -> FailureReport {
        var report = FailureReport(step: step, reason: reason, url: redactedCurrentURL, navigationLog: navigationLog)
        guard hasCommittedLoad, view != nil else { return report }
        let state = await evaluate("({url: location.href, title: document.title, text: document.body ? document.body.innerText : ''})",
                                   timeout: timeout)
        report.url = (state?["url"]?.stringValue).map(URLRedaction.redactingValues) ?? report.url
        report.title = state?["title"]?.stringValue
        report.visibleText = state?["text"]?.stringValue
        report.screenshotPNG = await bounded(timeout) { done in screenshot(wholeWindow: false) { done(try? $0.get()) } }
        return report
    }

    /// The page's visible text as a message quotes it (``VisibleText``); empty if it cannot be read.
    func visibleText(timeout: Duration) async -> String {
        VisibleText.excerpt(await evaluate(VisibleText.script, timeout: timeout)?.stringValue ?? "")
    }

    /// The URL of the page shown now (it may hold secrets: for scripts' predicates only).
    var currentURL: String? {
        view.flatMap { webkit_web_view_get_uri($0) }.map { String(cString: $0) }
    }

    /// The URL of the page shown now with its values redacted, for messages and reports.
    var redactedCurrentURL: String? {
        currentURL.map(URLRedaction.redactingValues)
    }

    /// The page's title as WebKit has it.
    private var currentTitle: String {
        view.flatMap { webkit_web_view_get_title($0) }.map { String(cString: $0) } ?? ""
    }

    private func evaluate(_ script: String, timeout: Duration) async -> JSONValue? {
        await bounded(timeout) { done in evaluate(script, in: .isolated) { done(try? $0.get()) } }
    }

    /// Starts `work` and returns what it hands `done`, or nil if that takes longer than `timeout`.
    private func bounded<Value: Sendable>(_ timeout: Duration,
                                          _ work: (@escaping @WebKitActor (Value?) -> Void) -> Void) async -> Value? {
        await withCheckedContinuation { continuation in
            let once = OneShot<Value?>(continuation)
            once.resume(nil, at: .now + timeout)
            work { once.resume($0) }
        }
    }
}
