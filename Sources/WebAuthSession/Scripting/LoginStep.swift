import Foundation

/// One step of a ``LoginScript``. Steps that act on an element wait for it first.
public enum LoginStep: Sendable, Hashable, CustomStringConvertible {
    /// Types `value` into the field matching the CSS selector (input and change events fire, as when a person types).
    case fill(String, LoginValue)
    /// Clicks the element matching the selector.
    case click(String)
    /// Presses Enter in the element matching the selector (submitting its form unless the page handles the key).
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
        case fill, click, pressEnter = "press_enter", waitFor = "wait_for", waitForURL = "wait_for_url"
        case waitForText = "wait_for_text", javascript, chooseAccount = "choose_account"
        case value, env, file, command, outbox, passEnvironment = "pass_environment"
    }

    /// Reads a step written as one action key, plus a value source for `fill`:
    /// `{fill: "#password", env: PASSWORD}`, `{click: "#sign-in"}`, `{wait_for_url: "/consent"}`, ...
    /// A `command` source may name the variables it is given: `{fill: "#code", command: "pass otp web",
    /// pass_environment: [PASSWORD_STORE_DIR]}`.
    /// An unknown key is an error that names the closest known one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let actions: [Key] = [.fill, .click, .pressEnter, .waitFor, .waitForURL, .waitForText, .javascript, .chooseAccount]
        let needsOneAction = "a step needs exactly one of \(actions.map(\.rawValue).joined(separator: ", "))"
        try decoder.rejectUnknownKeys(Key.allCases.map(\.rawValue), otherwise: needsOneAction)
        let present = actions.filter { container.contains($0) }
        guard present.count == 1, let action = present.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: needsOneAction))
        }
        if action != .fill, let source = Key.allCases.first(where: { !actions.contains($0) && container.contains($0) }) {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "\(source.rawValue) goes with fill only, not with \(action.rawValue)"))
        }
        let argument = try container.decode(String.self, forKey: action)
        switch action {
        case .fill: self = .fill(argument, try Self.value(in: container, codingPath: decoder.codingPath))
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
        let sources: [Key] = [.value, .env, .file, .command, .outbox]
        let present = sources.filter { container.contains($0) }
        guard present.count == 1, let source = present.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription:
                "fill needs exactly one of value, env, file, command, outbox"))
        }
        let text = try container.decode(String.self, forKey: source)
        if source != .command, container.contains(.passEnvironment) {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "pass_environment goes with command only"))
        }
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
