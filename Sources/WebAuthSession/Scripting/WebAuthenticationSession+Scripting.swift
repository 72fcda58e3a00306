import Foundation
import OpenIDConnect

/// Page scripting: drive the sign-in page from another task while ``start()`` waits, as a
/// test harness or a login script does. Each call first waits (within its timeout) for the
/// page to exist, so it may be issued right after ``start()`` is called.
extension WebAuthenticationSession {
    /// Runs `script` in the page (its last expression is the result) and returns the result as JSON.
    /// `undefined` and values JSON cannot hold come back as `JSONValue.null`; a Promise is not
    /// awaited and fails the call (wait for a page condition with ``waitForElement(_:timeout:)``
    /// or ``waitForText(_:timeout:)`` instead). The script runs in
    /// the page's own JavaScript world, with its globals (and the page sees what it does): do
    /// not pass it secrets. Login scripts' own steps run in an isolated world instead.
    /// - Throws: ``PageScriptError/scriptFailed(message:)`` if it throws or does not parse.
    @discardableResult
    public func evaluateJavaScript(_ script: String, timeout: Duration = .seconds(30)) async throws(PageScriptError) -> JSONValue {
        try await evaluateJavaScript(script, timeout: timeout, world: .page)
    }

    /// Runs `script` in the engine's isolated world: it shares the page's DOM but not its
    /// JavaScript globals, so the page can neither tamper with it nor read what it passes.
    @discardableResult
    func evaluateInIsolatedWorld(_ script: String, timeout: Duration) async throws(PageScriptError) -> JSONValue {
        try await evaluateJavaScript(script, timeout: timeout, world: .isolated)
    }

    private func evaluateJavaScript(_ script: String, timeout: Duration, world: SignInPage.ScriptWorld) async throws(PageScriptError) -> JSONValue {
        let deadline = ContinuousClock.now + timeout
        let page = try await runningPage(before: deadline, timeout: timeout, waitingFor: "the page")
        let result = await withCheckedContinuation { continuation in
            page.evaluate(script, in: world) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Waits until an element matching the CSS `selector` is in the page, across page loads;
    /// `timeout` runs from the page's first document on.
    /// - Throws: ``PageScriptError/timedOut(waitingFor:after:url:)``, ``PageScriptError/sessionEnded``,
    ///   ``PageScriptError/captchaRequired(kind:pageText:)``.
    public func waitForElement(_ selector: String, timeout: Duration = .seconds(30)) async throws(PageScriptError) {
        try await waitForPage(where: "document.querySelector(\(JSONValue.string(selector)))", condition: "element '\(selector)'",
                              timeout: timeout)
    }

    /// Waits until the page's visible text contains `text`, across page loads; `timeout` runs
    /// from the page's first document on.
    /// - Throws: ``PageScriptError/timedOut(waitingFor:after:url:)``, ``PageScriptError/sessionEnded``,
    ///   ``PageScriptError/captchaRequired(kind:pageText:)``.
    public func waitForText(_ text: String, timeout: Duration = .seconds(30)) async throws(PageScriptError) {
        try await waitForPage(where: "document.body && document.body.innerText.includes(\(JSONValue.string(text)))",
                              condition: "text '\(text)'", timeout: timeout)
    }

    /// Waits until the element matching the CSS `selector` is in the page and enabled: not
    /// `disabled` (itself or through a disabled fieldset) and not `aria-disabled="true"`, across page loads.
    /// - Throws: ``PageScriptError/timedOut(waitingFor:after:url:)``, ``PageScriptError/sessionEnded``,
    ///   ``PageScriptError/captchaRequired(kind:pageText:)``.
    public func waitForEnabled(_ selector: String, timeout: Duration = .seconds(30)) async throws(PageScriptError) {
        try await waitForPage(where: """
            ((element) => element && !element.matches(':disabled') && element.getAttribute('aria-disabled') !== 'true')(
                document.querySelector(\(JSONValue.string(selector))))
            """, condition: "element '\(selector)' to be enabled", timeout: timeout)
    }

    /// Waits until the JavaScript expression `predicate` is truthy in the page, checked again
    /// on every change of the document (a MutationObserver, no polling). A captcha in the page
    /// ends the wait at once (``PageScriptError/captchaRequired(kind:pageText:)``): no script gets past one.
    private func waitForPage(where predicate: String, condition: String, timeout: Duration) async throws(PageScriptError) {
        let body = """
            const satisfied = () => Boolean(\(predicate));
            const deadEnd = () => {
                const captcha = \(CaptchaKind.detectionScript);
                return captcha && { captcha, text: \(VisibleText.script) };
            };
            if (satisfied()) return true;
            if (deadEnd()) return deadEnd();
            return await new Promise((resolve) => {
                const observer = new MutationObserver(() => {
                    const found = satisfied() || deadEnd();
                    if (found) { observer.disconnect(); resolve(found); }
                });
                observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
            });
            """
        var captcha: (kind: CaptchaKind, text: String)?
        try await waitAcrossPageChanges(for: condition, timeout: timeout) { page, done in
            page.callAsyncFunction(body, in: .isolated) { result in
                // A script that fails in a page being replaced is retried in the next page.
                switch result {
                case .success(.bool(true)):
                    done()
                case .success(let found):
                    guard let kind = found["captcha"]?.stringValue.flatMap(CaptchaKind.init(rawValue:)) else { return }
                    captcha = (kind, VisibleText.excerpt(found["text"]?.stringValue ?? ""))
                    done()
                case .failure:
                    break
                }
            }
        }
        if let captcha { throw .captchaRequired(kind: captcha.kind, pageText: captcha.text) }
    }

    /// Waits until the page's URL satisfies `predicate`, and returns that URL.
    /// - Throws: ``PageScriptError/timedOut(waitingFor:after:url:)``, ``PageScriptError/sessionEnded``.
    @discardableResult
    public func waitForURL(timeout: Duration = .seconds(30),
                           where predicate: @escaping @Sendable (String) -> Bool) async throws(PageScriptError) -> String {
        var matched: String?
        try await waitAcrossPageChanges(for: "a matching URL", timeout: timeout) { page, done in
            if let url = page.currentURL, predicate(url) {
                matched = url
                done()
            }
        }
        return matched ?? ""
    }

    private enum WaitOutcome: Sendable {
        case satisfied, pageChanged, timedOut, ended
    }

    /// Arms `check` on the current page; if it does not call `done` before the page changes,
    /// arms it again on the next page, until the deadline (counted from the first document).
    private func waitAcrossPageChanges(
        for condition: String, timeout: Duration,
        check: @escaping @WebKitActor (SignInPage, @escaping @WebKitActor () -> Void) -> Void
    ) async throws(PageScriptError) {
        let deadline = try await pageAndDeadline(after: timeout).deadline
        while true {
            let page = try await runningPage(before: deadline, timeout: timeout, waitingFor: condition)
            guard !page.hasEnded else { throw .sessionEnded }
            let outcome: WaitOutcome = await withCheckedContinuation { continuation in
                let once = OneShot(continuation)
                once.resume(.timedOut, at: deadline)
                page.onNextPageChange { once.resume(page.hasEnded ? .ended : .pageChanged) }
                check(page) { once.resume(.satisfied) }
            }
            switch outcome {
            case .satisfied: return
            case .pageChanged: continue
            case .ended: throw .sessionEnded
            case .timedOut: throw .timedOut(waitingFor: condition, after: timeout, url: page.redactedCurrentURL)
            }
        }
    }
}

/// What a person would see: a screenshot, and the page's address, title and text.
extension WebAuthenticationSession {
    /// What a screenshot shows.
    public enum ScreenshotArea: Sendable {
        /// The visible part of the page, rendered by WebKit (also when headless).
        case page
        /// The whole sign-in window as on screen, header bar included (the page alone when headless).
        case window
    }

    /// A screenshot as PNG.
    /// - Throws: ``PageScriptError``.
    public func screenshot(of area: ScreenshotArea = .page, timeout: Duration = .seconds(10)) async throws(PageScriptError) -> Data {
        let deadline = ContinuousClock.now + timeout
        let page = try await runningPage(before: deadline, timeout: timeout, waitingFor: "the page")
        let result = await withCheckedContinuation { continuation in
            page.screenshot(wholeWindow: area == .window) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// The page's URL, title and visible text, screenshot and navigation log: what a person
    /// fixing a login script needs. Parts that cannot be had (the page is gone) are left out.
    public func failureReport(step: String? = nil, reason: String? = nil) async -> FailureReport {
        let timeout = FailureReport.readingTime
        guard let page = try? await runningPage(before: .now + timeout, timeout: timeout, waitingFor: "the page") else {
            return FailureReport(step: step, reason: reason, url: page?.redactedCurrentURL, navigationLog: navigationLog)
        }
        return await page.failureReport(step: step, reason: reason, navigationLog: navigationLog, timeout: timeout)
    }
}
