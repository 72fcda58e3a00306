import Foundation
import OpenIDConnect

/// Trusted key presses for login scripts: the element is focused in the isolated world, the keys
/// go through ``PageKeyboard``, and the step ends once the page has seen the last key.
extension WebAuthenticationSession {
    /// Focuses the element matching `selector` (selecting what it holds if `replacing`, so typing
    /// replaces it), presses `keys`, and waits until the page has seen the release of the last one
    /// or has moved on to another page (a form the keys submitted). `guardScript` runs first in
    /// the same evaluation and may throw to refuse (a secret's destination). `refusal` is asked
    /// again right before the keys go, with the page's URL then. With `submitsForm`, a form with no
    /// submit button (where a browser's Enter submits nothing once it has several text fields) is
    /// submitted after the keys, unless the page cancelled a key or the form was submitted already.
    /// - Throws: ``PageScriptError``; ``PageScriptError/scriptFailed(message:)`` when no element
    ///   matches, the guard or `refusal` refuses, or the view cannot take keys.
    func press(_ keys: [PageKeyboard.Key], in selector: String, replacing: Bool, submitsForm: Bool = false, guardScript: String = "",
               refusal: @WebKitActor (String?) -> String? = { _ in nil }, timeout: Duration) async throws(PageScriptError) {
        let (page, deadline) = try await pageAndDeadline(after: timeout)
        let token = "webauthKeys" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let count = keys.reduce(0) { $0 + $1.keyvals.count }
        let armed = await withCheckedContinuation { continuation in
            page.evaluate("""
                (() => {
                    const element = document.querySelector(\(JSONValue.string(selector)));
                    if (!element) throw new Error('no element matches ' + \(JSONValue.string(selector)));
                    \(guardScript)
                    element.focus();
                    if (\(replacing) && typeof element.select === 'function') element.select();
                    if (\(count) === 0) return true;
                    const form = \(submitsForm) ? element.form : null;
                    let released = 0, cancelled = false, submitted = false;
                    const noteCancelled = (event) => { cancelled ||= event.defaultPrevented; };
                    addEventListener('keydown', noteCancelled);
                    form?.addEventListener('submit', () => { submitted = true; }, { capture: true, once: true });
                    globalThis[\(JSONValue.string(token))] = new Promise((resolve) => {
                        const listener = () => {
                            if (++released < \(count)) return;
                            removeEventListener('keyup', listener, true);
                            removeEventListener('keydown', noteCancelled);
                            const hasSubmitButton = [...(form?.elements ?? [])].some((field) => ['submit', 'image'].includes(field.type));
                            if (form?.isConnected && !cancelled && !submitted && !hasSubmitButton) form.requestSubmit();
                            resolve(true);
                        };
                        addEventListener('keyup', listener, true);
                    });
                    return true;
                })()
                """, in: .isolated) { continuation.resume(returning: $0) }
        }
        _ = try armed.get()
        if let reason = refusal(page.currentURL) { throw .scriptFailed(message: reason) }
        guard count > 0 else { return }  // nothing to type: the field is focused, as a person leaves it
        guard page.press(keys) else { throw .scriptFailed(message: "the page's view has no window to send keys to") }
        // A page the keys replaced (a submitted form) may fail the await instead: its page change ends the wait.
        let seen: Bool = await withCheckedContinuation { continuation in
            let once = OneShot(continuation)
            once.resume(false, at: deadline)
            page.onNextPageChange { once.resume(true) }
            page.callAsyncFunction("return await globalThis[\(JSONValue.string(token))];", in: .isolated) {
                if case .success = $0 { once.resume(true) }
            }
        }
        guard seen else { throw .timedOut(waitingFor: "the page to see the keys", after: timeout, url: page.redactedCurrentURL) }
    }
}
