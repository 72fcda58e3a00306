import Foundation
import OpenIDConnect

/// The interpreter of a ``LoginScript``: its steps run against the real page of a session.
extension LoginScript {
    /// Runs the steps in `session`'s page (a step that waits for the page counts its time from the
    /// page's first document on); `progress` hears each step before it runs. After the last step the session fails if its
    /// page settles (``settleTimeout``).
    /// - Parameters:
    ///   - session: the session whose page the steps act on.
    ///   - environment: where ``LoginValue/environment(_:)`` values come from.
    ///   - http: the HTTP client that reads ``LoginValue/outbox(_:)`` values.
    ///   - artifactsDirectory: if set, a failure's report is also written to a new directory in it
    ///     (a CI job passes a directory it keeps); by default it is only in the error.
    ///   - progress: hears each step, with its number from 1, before it runs.
    /// - Throws: ``LoginScriptError``.
    public func run(in session: WebAuthenticationSession, environment: [String: String] = ProcessInfo.processInfo.environment,
                    http: any HTTPClient = URLSessionHTTPClient(), artifactsDirectory: URL? = nil,
                    progress: @Sendable (_ number: Int, _ step: LoginStep) -> Void = { _, _ in }) async throws(LoginScriptError) {
        let destination = SecretDestination(providerURL: session.url, allowlist: secretHosts)
        await session.answerHTTPAuthentication(with: await httpCredential(environment: environment, http: http))
        if let passkey { await session.usePasskeys(passkey, secretHosts: secretHosts) }
        for (index, step) in steps.enumerated() {
            progress(index + 1, step)
            do {
                try await perform(step, in: session, environment: environment, http: http, destination: destination)
            } catch {
                let reason = String(describing: error)
                let report = await session.failureReport(step: "step \(index + 1): \(step)", reason: reason)
                if let artifactsDirectory {
                    let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
                    _ = try? report.write(to: artifactsDirectory.appendingPathComponent("\(stamp)-step-\(index + 1)-\(UUID().uuidString.prefix(6))"))
                }
                throw LoginScriptError(stepNumber: index + 1, step: step, reason: reason, report: report,
                                       pageError: StepInBlockError.pageError(in: error))
            }
        }
        if let settleTimeout { await session.failWhenSettled(after: settleTimeout) }
    }

    /// This script as the `script:` of ``OpenIDConnectClient/signIn(scopes:responseType:responseMode:additionalParameters:options:script:)``,
    /// reading values from `environment` and leaving a failure's report in `artifactsDirectory`
    /// if one is given (see ``run(in:environment:http:artifactsDirectory:progress:)``).
    public func runner(environment: [String: String] = ProcessInfo.processInfo.environment, artifactsDirectory: URL? = nil)
        -> @Sendable (WebAuthenticationSession) async throws -> Void {
        { session in try await run(in: session, environment: environment, artifactsDirectory: artifactsDirectory) }
    }

    private func perform(_ step: LoginStep, in session: WebAuthenticationSession, environment: [String: String],
                         http: any HTTPClient, destination: SecretDestination) async throws {
        switch step {
        case .fill(let selector, let source):
            try await session.waitForElement(selector, timeout: stepTimeout)
            let (value, guardScript) = try await resolve(source, for: selector, in: session, environment: environment, http: http,
                                                         destination: destination)
            try await session.evaluateInIsolatedWorld(Self.element(selector, guardScript + """
                element.focus();
                const kind = [HTMLInputElement, HTMLTextAreaElement, HTMLSelectElement].find((kind) => element instanceof kind);
                if (kind) Object.getOwnPropertyDescriptor(kind.prototype, 'value').set.call(element, \(JSONValue.string(value)));
                else element.value = \(JSONValue.string(value));
                element.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: \(JSONValue.string(value)) }));
                element.dispatchEvent(new Event('change', { bubbles: true }));
                """), timeout: stepTimeout)
        case .type(let selector, let source):
            try await session.waitForElement(selector, timeout: stepTimeout)
            let (value, guardScript) = try await resolve(source, for: selector, in: session, environment: environment, http: http,
                                                         destination: destination)
            try await session.press(value.map { .character($0) }, in: selector, replacing: true, guardScript: guardScript,
                                    refusal: { guardScript.isEmpty ? nil : destination.refusal(for: $0) }, timeout: stepTimeout)
        case .click(let selector):
            try await session.waitForElement(selector, timeout: stepTimeout)
            try await session.evaluateInIsolatedWorld(Self.element(selector, "element.click();"), timeout: stepTimeout)
        case .pressEnter(let selector):
            try await session.waitForElement(selector, timeout: stepTimeout)
            try await session.press([.enter], in: selector, replacing: false, submitsForm: true, timeout: stepTimeout)
        case .waitForElement(let selector):
            try await session.waitForElement(selector, timeout: stepTimeout)
        case .waitForURL(containing: let text):
            try await session.waitForURL(timeout: stepTimeout) { $0.contains(text) }
        case .waitForText(let text):
            try await session.waitForText(text, timeout: stepTimeout)
        case .javaScript(let source):
            try await session.evaluateJavaScript(source, timeout: stepTimeout)
        case .chooseAccount(let text):
            try await session.waitForText(text, timeout: stepTimeout)
            let clicked = try await session.evaluateInIsolatedWorld("""
                (() => {
                    const text = \(JSONValue.string(text));
                    const candidates = [...document.querySelectorAll('a, button, [role=button], [role=link], [role=option], li, [tabindex]')];
                    const match = candidates.reverse().find((element) => element.innerText.includes(text));
                    if (!match) return false;
                    match.click();
                    return true;
                })()
                """, timeout: stepTimeout)
            guard clicked == .bool(true) else { throw LoginStepRefusal("no link, button or list item shows '\(text)'") }
        case .check(let selector), .uncheck(let selector):
            try await setCheckbox(selector, checked: step == .check(selector), in: session)
        case .select(let selector, let option):
            try await session.waitForElement(selector, timeout: stepTimeout)
            let chosen = try await session.evaluateInIsolatedWorld(Self.element(selector, """
                if (!(element instanceof HTMLSelectElement)) return 'not a select';
                const wanted = \(JSONValue.string(option));
                const options = [...element.options];
                const match = options.find((o) => o.value === wanted) || options.find((o) => o.text.trim() === wanted);
                if (!match) return 'no option';
                match.selected = true;
                element.dispatchEvent(new Event('input', { bubbles: true }));
                element.dispatchEvent(new Event('change', { bubbles: true }));
                """), timeout: stepTimeout)
            switch chosen {
            case .string("not a select"): throw LoginStepRefusal("'\(selector)' is not a <select>: use click for a custom drop-down")
            case .string("no option"): throw LoginStepRefusal("'\(selector)' has no option whose value or text is '\(option)'")
            default: break
            }
        case .waitForEnabled(let selector):
            try await session.waitForEnabled(selector, timeout: stepTimeout)
        case .waitForURLMatching(let pattern):
            do { _ = try Regex(pattern) } catch { throw LoginStepRefusal("/\(pattern)/ is not a valid regular expression: \(error)") }
            try await session.waitForURL(timeout: stepTimeout) { url in (try? Regex(pattern).firstMatch(in: url)) != nil }
        case .optional(let inner, let timeout):
            guard let selector = inner.elementSelector else { throw LoginStepRefusal("optional goes with steps that act on an element only") }
            do { try await session.waitForElement(selector, timeout: timeout ?? optionalTimeout) } catch {
                guard case .timedOut = error else { throw error }
                return  // the screen was not shown: nothing to do
            }
            try await perform(inner, in: session, environment: environment, http: http, destination: destination)
        case .when(let selector, let steps):
            try await session.waitUntilSettled(quiet: Self.settleQuietBeforeWhen, timeout: stepTimeout)
            let present = try await session.evaluateInIsolatedWorld("!!document.querySelector(\(JSONValue.string(selector)))", timeout: stepTimeout)
            guard present == .bool(true) else { return }
            for (index, inner) in steps.enumerated() {
                do { try await perform(inner, in: session, environment: environment, http: http, destination: destination) } catch {
                    throw StepInBlockError(number: index + 1, step: inner, underlying: error)
                }
            }
        }
    }

    /// How long the page must go without a load, navigation or title change before a `when` looks at it.
    static let settleQuietBeforeWhen = Duration.milliseconds(500)

    /// Ticks or clears the checkbox (or radio button) `selector` with a click, as a person does,
    /// so the page hears click, input and change; nothing happens if it is that way already.
    private func setCheckbox(_ selector: String, checked: Bool, in session: WebAuthenticationSession) async throws {
        try await session.waitForElement(selector, timeout: stepTimeout)
        let outcome = try await session.evaluateInIsolatedWorld(Self.element(selector, """
            if (!(element instanceof HTMLInputElement) || !['checkbox', 'radio'].includes(element.type)) return 'not a checkbox';
            if (element.checked !== \(checked)) element.click();
            if (element.checked !== \(checked)) return 'unchanged';
            """), timeout: stepTimeout)
        switch outcome {
        case .string("not a checkbox"): throw LoginStepRefusal("'\(selector)' is not a checkbox or radio button")
        case .string("unchanged"): throw LoginStepRefusal("clicking '\(selector)' did not \(checked ? "tick" : "clear") it: the page refused")
        default: break
        }
    }

    /// The text `source` gives for the field `selector`, read after the checks: a literal never goes
    /// into a password field, and a secret only into a page ``SecretDestination`` allows. The
    /// guard is JavaScript that repeats the destination check where the value is typed (empty
    /// for a literal).
    private func resolve(_ source: LoginValue, for selector: String, in session: WebAuthenticationSession, environment: [String: String],
                         http: any HTTPClient, destination: SecretDestination) async throws -> (value: String, guardScript: String) {
        let source = try source.substituting(variables)
        let type = try await session.evaluateInIsolatedWorld("document.querySelector(\(JSONValue.string(selector)))?.type ?? ''",
                                                             timeout: stepTimeout)
        if case .literal = source {
            guard type != .string("password") else {
                throw LoginStepRefusal("a password field takes its value from env, file or command, not from the script")
            }
            return (try await source.resolve(environment: environment, http: http), "")
        }
        if let refusal = destination.refusal(for: await session.page?.currentURL) {
            throw LoginStepRefusal("refusing to type \(source) here: \(refusal)")
        }
        return (try await source.resolve(environment: environment, http: http), destination.javaScriptGuard)
    }

    /// The user name and password of ``httpAuthentication``, read now; nil without it, if its
    /// password is not from env, a file or a command, or if it cannot be read (a page that asks
    /// then fails the session, as with none).
    private func httpCredential(environment: [String: String], http: any HTTPClient) async -> HTTPCredential? {
        guard let httpAuthentication, let source = try? httpAuthentication.password.substituting(variables) else { return nil }
        switch source {
        case .environment, .file, .command: break
        case .literal, .outbox, .totp, .variable: return nil
        }
        guard let password = try? await source.resolve(environment: environment, http: http) else { return nil }
        return HTTPCredential(user: httpAuthentication.username, password: password, secretHosts: secretHosts)
    }

    /// JavaScript that runs `body` with `element` bound to the first match of `selector`.
    private static func element(_ selector: String, _ body: String) -> String {
        """
        (() => {
            const element = document.querySelector(\(JSONValue.string(selector)));
            if (!element) throw new Error('no element matches ' + \(JSONValue.string(selector)));
            \(body)
            return true;
        })()
        """
    }
}

/// A step inside a `when` block failed: which one (from 1), and why.
struct StepInBlockError: Error, CustomStringConvertible {
    let number: Int
    let step: LoginStep
    let underlying: any Error

    var description: String { "step \(number) of the block (\(step)) failed: \(underlying)" }

    /// The ``PageScriptError`` under `error`, through any blocks.
    static func pageError(in error: any Error) -> PageScriptError? {
        switch error {
        case let error as PageScriptError: error
        case let error as StepInBlockError: pageError(in: error.underlying)
        default: nil
        }
    }
}

/// A step that the page allowed but the script's rules do not.
struct LoginStepRefusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
