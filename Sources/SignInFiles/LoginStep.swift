import Foundation

/// One step of a ``LoginScript``. Steps that act on an element wait for it first.
public enum LoginStep: Sendable, Hashable, CustomStringConvertible {
    /// Puts `value` into the field matching the CSS selector through the element's native value
    /// setter, then fires `input` (an `InputEvent`) and `change`, so React, Vue and Angular see it.
    case fill(String, LoginValue)
    /// Focuses the field matching the selector and types `value` with real key events (trusted
    /// keydown, keypress, input, keyup for each character, sent through GDK), replacing
    /// what the field held: for pages that listen to keys.
    case type(String, LoginValue)
    /// Clicks the element matching the selector.
    case click(String)
    /// Focuses the element matching the selector and presses Enter with a real key event (trusted),
    /// as a person does: the page handles it, and its form submits by the browser's rules (not
    /// past a disabled submit button). A form with no submit button is submitted unless the page
    /// cancelled the key.
    case pressEnter(String)
    /// Waits until an element matching the selector is in the page.
    case waitForElement(String)
    /// Waits until the page's URL contains the text.
    case waitForURL(containing: String)
    /// Waits until the page's visible text contains the text.
    case waitForText(String)
    /// Runs JavaScript in the page.
    case javaScript(String)
    /// Clicks the account (a link, button or list item) whose text contains the text, as on an account chooser.
    case chooseAccount(String)
    /// Ticks the checkbox matching the selector (a consent box); nothing happens if it is ticked already.
    case check(String)
    /// Clears the checkbox matching the selector; nothing happens if it is clear already.
    case uncheck(String)
    /// Chooses, in the `<select>` matching the selector, the option whose value or visible text is `option`.
    case select(String, option: String)
    /// Waits until the element matching the selector is in the page and enabled (not `disabled`, not `aria-disabled`).
    case waitForEnabled(String)
    /// Waits until the page's URL matches the regular expression (Swift `Regex` syntax; it may match anywhere in the URL).
    case waitForURLMatching(String)
    /// Runs `step` if its element appears within `timeout` (the script's ``LoginScript/optionalTimeout`` when nil),
    /// and skips it otherwise: a screen that may or may not be shown ("stay signed in?").
    indirect case optional(LoginStep, timeout: Duration? = nil)
    /// Runs `steps` only if an element matching the selector is in the page once it has settled
    /// (an account chooser shown to some users only); checked once, not waited for.
    case when(String, steps: [LoginStep])

    public var description: String {
        switch self {
        case .fill(let selector, let value): "fill '\(selector)' from \(value)"
        case .type(let selector, let value): "type into '\(selector)' from \(value)"
        case .click(let selector): "click '\(selector)'"
        case .pressEnter(let selector): "press Enter in '\(selector)'"
        case .waitForElement(let selector): "wait for '\(selector)'"
        case .waitForURL(containing: let text): "wait for a URL containing '\(text)'"
        case .waitForText(let text): "wait for the text '\(text)'"
        case .javaScript: "run JavaScript"
        case .chooseAccount(let text): "choose the account '\(text)'"
        case .check(let selector): "check '\(selector)'"
        case .uncheck(let selector): "uncheck '\(selector)'"
        case .select(let selector, let option): "select '\(option)' in '\(selector)'"
        case .waitForEnabled(let selector): "wait for '\(selector)' to be enabled"
        case .waitForURLMatching(let pattern): "wait for a URL matching /\(pattern)/"
        case .optional(let step, _): "\(step) if it appears"
        case .when(let selector, let steps): "when '\(selector)' is there, \(steps.count) step\(steps.count == 1 ? "" : "s")"
        }
    }

    /// The selector of the element this step acts on or waits for; nil for steps without one.
    package var elementSelector: String? {
        switch self {
        case .fill(let selector, _), .type(let selector, _), .click(let selector), .pressEnter(let selector), .waitForElement(let selector),
             .check(let selector), .uncheck(let selector), .select(let selector, _), .waitForEnabled(let selector):
            selector
        case .optional(let step, _):
            step.elementSelector
        case .waitForURL, .waitForURLMatching, .waitForText, .javaScript, .chooseAccount, .when:
            nil
        }
    }
}

extension LoginStep: Decodable {
    private enum Key: String, CodingKey, CaseIterable {
        case fill, type, click, pressEnter = "press_enter", waitFor = "wait_for", waitForURL = "wait_for_url"
        case waitForText = "wait_for_text", javascript, chooseAccount = "choose_account"
        case check, uncheck, select, waitForEnabled = "wait_for_enabled", when
        case value, env, file, command, outbox, totp, variable = "var", passEnvironment = "pass_environment"
        case option, steps, optional, optionalTimeout = "optional_timeout"
    }

    /// The keys that name what a step does; a step has exactly one.
    private static let actions: [Key] = [.fill, .type, .click, .pressEnter, .waitFor, .waitForURL, .waitForText, .javascript, .chooseAccount,
                                         .check, .uncheck, .select, .waitForEnabled, .when]
    /// The actions that act on an element, which `optional` may skip.
    private static let elementActions: [Key] = [.fill, .type, .click, .pressEnter, .waitFor, .check, .uncheck, .select, .waitForEnabled]
    /// The other keys, and the actions each goes with.
    private static let companions: [Key: [Key]] = [
        .value: [.fill, .type], .env: [.fill, .type], .file: [.fill, .type], .command: [.fill, .type], .outbox: [.fill, .type],
        .totp: [.fill, .type], .variable: [.fill, .type], .passEnvironment: [.fill, .type],
        .option: [.select], .steps: [.when], .optional: elementActions, .optionalTimeout: elementActions,
    ]

    /// Reads a step written as one action key, plus a value source for `fill` and `type`:
    /// `{fill: "#password", env: PASSWORD}`, `{type: "#code", totp: {secret_env: TOTP_SECRET}}`, `{click: "#sign-in"}`,
    /// `{wait_for_url: "/consent"}`, `{wait_for_url: {matches: "/consent(/|$)"}}`, `{select: "#country", option: "Norway"}`,
    /// `{click: "#stay", optional: true, optional_timeout: 2}`, `{when: "#chooser", steps: [...]}`, ...
    /// A `command` source may name the variables it is given: `{fill: "#code", command: "pass otp web",
    /// pass_environment: [PASSWORD_STORE_DIR]}`. `{fill: "#password", var: password}` types the current batch
    /// entry's value of that name (``LoginValue/variable(_:)``).
    /// An unknown key is an error that names the closest known one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let needsOneAction = "a step needs exactly one of \(Self.actions.map(\.rawValue).joined(separator: ", "))"
        try decoder.rejectUnknownKeys(Key.allCases.map(\.rawValue), otherwise: needsOneAction)
        let present = Self.actions.filter { container.contains($0) }
        guard present.count == 1, let action = present.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: needsOneAction))
        }
        for key in Key.allCases where container.contains(key) {
            guard let allowed = Self.companions[key], !allowed.contains(action) else { continue }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "\(key.rawValue) goes with \(Self.list(allowed)) only, not with \(action.rawValue)"))
        }
        let step: LoginStep
        switch action {
        case .waitForURL: step = try Self.urlWait(in: container)
        case .when: step = .when(try container.decode(String.self, forKey: .when), steps: try container.decode([LoginStep].self, forKey: .steps))
        default: step = try Self.step(action, argument: try container.decode(String.self, forKey: action), in: container,
                                      codingPath: decoder.codingPath)
        }
        self = try Self.optional(step, in: container)
    }

    /// The keys' names as a list for a message: `fill or type`, `check, uncheck or select`.
    private static func list(_ keys: [Key]) -> String {
        let names = keys.map(\.rawValue)
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// The step `action` with its `argument` (a selector, a text, a script).
    private static func step(_ action: Key, argument: String, in container: KeyedDecodingContainer<Key>,
                             codingPath: [any CodingKey]) throws -> LoginStep {
        switch action {
        case .fill: .fill(argument, try value(in: container, codingPath: codingPath))
        case .type: .type(argument, try value(in: container, codingPath: codingPath))
        case .click: .click(argument)
        case .pressEnter: .pressEnter(argument)
        case .waitFor: .waitForElement(argument)
        case .waitForText: .waitForText(argument)
        case .javascript: .javaScript(argument)
        case .check: .check(argument)
        case .uncheck: .uncheck(argument)
        case .select: .select(argument, option: try container.decode(String.self, forKey: .option))
        case .waitForEnabled: .waitForEnabled(argument)
        default: .chooseAccount(argument)
        }
    }

    /// `wait_for_url: TEXT` (the URL contains it) or `wait_for_url: {matches: REGEX}`.
    private static func urlWait(in container: KeyedDecodingContainer<Key>) throws -> LoginStep {
        if let text = try? container.decode(String.self, forKey: .waitForURL) { return .waitForURL(containing: text) }
        return .waitForURLMatching(try container.decode(URLPattern.self, forKey: .waitForURL).matches)
    }

    /// `step` made optional by `optional: true`, with its own `optional_timeout` if given.
    private static func optional(_ step: LoginStep, in container: KeyedDecodingContainer<Key>) throws -> LoginStep {
        let timeout = try container.decodeIfPresent(Double.self, forKey: .optionalTimeout)
        guard try container.decodeIfPresent(Bool.self, forKey: .optional) == true else {
            guard timeout == nil else {
                throw DecodingError.dataCorruptedError(forKey: .optionalTimeout, in: container, debugDescription: "optional_timeout goes with optional: true")
            }
            return step
        }
        guard let timeout else { return .optional(step) }
        guard timeout > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .optionalTimeout, in: container, debugDescription: "optional_timeout must be positive")
        }
        guard let duration = ScriptSeconds.duration(timeout) else {
            throw DecodingError.dataCorruptedError(forKey: .optionalTimeout, in: container, debugDescription:
                "optional_timeout \(ScriptSeconds.tooLong)")
        }
        return .optional(step, timeout: duration)
    }

    private static func value(in container: KeyedDecodingContainer<Key>, codingPath: [any CodingKey]) throws -> LoginValue {
        let sources: [Key] = [.value, .env, .file, .command, .outbox, .totp, .variable]
        let present = sources.filter { container.contains($0) }
        guard present.count == 1, let source = present.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription:
                "fill and type need exactly one of value, env, file, command, outbox, totp, var"))
        }
        if source != .command, container.contains(.passEnvironment) {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "pass_environment goes with command only"))
        }
        if source == .totp { return .totp(try container.decode(TOTPSource.self, forKey: .totp)) }
        let text = try container.decode(String.self, forKey: source)
        switch source {
        case .value: return .literal(text)
        case .env: return .environment(text)
        case .file: return .file(text)
        case .command: return .command(text, passing: try container.decodeIfPresent([String].self, forKey: .passEnvironment) ?? [])
        case .variable: return .variable(text)
        default:
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host?.isEmpty == false else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "outbox must be an http(s) URL"))
            }
            return .outbox(url)
        }
    }
}

/// `{matches: REGEX}`, the pattern form of `wait_for_url`; a pattern that does not compile is an
/// error at the pattern's line and column.
private struct URLPattern: Decodable {
    let matches: String

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case matches
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        matches = try container.decode(String.self, forKey: .matches)
        do { _ = try Regex(matches) } catch {
            throw DecodingError.dataCorruptedError(forKey: .matches, in: container, debugDescription: "not a valid regular expression: \(error)")
        }
    }
}
