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

    public var description: String {
        switch self {
        case .fill(let selector, let value): "fill '\(selector)' from \(value)"
        case .type(let selector, let value): "type into '\(selector)' from \(value)"
        case .click(let selector): "click '\(selector)'"
        case .pressEnter(let selector): "press Enter in '\(selector)'"
        case .waitForElement(let selector): "wait for '\(selector)'"
        case .waitForURL(let text): "wait for a URL containing '\(text)'"
        case .waitForText(let text): "wait for the text '\(text)'"
        case .javaScript: "run JavaScript"
        case .chooseAccount(let text): "choose the account '\(text)'"
        }
    }
}

extension LoginStep: Decodable {
    private enum Key: String, CodingKey, CaseIterable {
        case fill, type, click, pressEnter = "press_enter", waitFor = "wait_for", waitForURL = "wait_for_url"
        case waitForText = "wait_for_text", javascript, chooseAccount = "choose_account"
        case value, env, file, command, outbox, totp, passEnvironment = "pass_environment"
    }

    /// Reads a step written as one action key, plus a value source for `fill` and `type`:
    /// `{fill: "#password", env: PASSWORD}`, `{type: "#code", totp: {secret_env: TOTP_SECRET}}`, `{click: "#sign-in"}`, `{wait_for_url: "/consent"}`, ...
    /// A `command` source may name the variables it is given: `{fill: "#code", command: "pass otp web",
    /// pass_environment: [PASSWORD_STORE_DIR]}`.
    /// An unknown key is an error that names the closest known one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let actions: [Key] = [.fill, .type, .click, .pressEnter, .waitFor, .waitForURL, .waitForText, .javascript, .chooseAccount]
        let needsOneAction = "a step needs exactly one of \(actions.map(\.rawValue).joined(separator: ", "))"
        try decoder.rejectUnknownKeys(Key.allCases.map(\.rawValue), otherwise: needsOneAction)
        let present = actions.filter { container.contains($0) }
        guard present.count == 1, let action = present.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: needsOneAction))
        }
        if action != .fill, action != .type, let source = Key.allCases.first(where: { !actions.contains($0) && container.contains($0) }) {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "\(source.rawValue) goes with fill or type only, not with \(action.rawValue)"))
        }
        let argument = try container.decode(String.self, forKey: action)
        switch action {
        case .fill: self = .fill(argument, try Self.value(in: container, codingPath: decoder.codingPath))
        case .type: self = .type(argument, try Self.value(in: container, codingPath: decoder.codingPath))
        case .click: self = .click(argument)
        case .pressEnter: self = .pressEnter(argument)
        case .waitFor: self = .waitForElement(argument)
        case .waitForURL: self = .waitForURL(containing: argument)
        case .waitForText: self = .waitForText(argument)
        case .javascript: self = .javaScript(argument)
        default: self = .chooseAccount(argument)
        }
    }

    private static func value(in container: KeyedDecodingContainer<Key>, codingPath: [any CodingKey]) throws -> LoginValue {
        let sources: [Key] = [.value, .env, .file, .command, .outbox, .totp]
        let present = sources.filter { container.contains($0) }
        guard present.count == 1, let source = present.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription:
                "fill and type need exactly one of value, env, file, command, outbox, totp"))
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
        default:
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host?.isEmpty == false else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "outbox must be an http(s) URL"))
            }
            return .outbox(url)
        }
    }
}
