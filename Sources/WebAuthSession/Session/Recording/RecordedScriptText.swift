import Foundation
import SignInFiles

/// A ``RecordedScript`` as the YAML file a person would have written: a header saying what to
/// export, one step per item with its comment above it, strings double-quoted (JSON's escapes,
/// which YAML reads the same), and the `passkey:` block when the page asked for one.
struct RecordedScriptText {
    /// The credentials file a recorded `passkey:` block names: the virtual authenticator's, which
    /// a replay needs (the person's own key cannot answer a headless replay).
    static let credentialsFile = "passkey-credentials.json"

    private let recorded: RecordedScript

    init(_ recorded: RecordedScript) {
        self.recorded = recorded
    }

    /// The file's text.
    var yaml: String {
        var lines = ["# Recorded by webauth record on \(recorded.host)."]
        let environment = recorded.requirements.filter(\.isEnvironment)
        if !environment.isEmpty {
            lines.append("# Before a replay, export:")
            lines += environment.map { "#   \($0.name): \($0.meaning)" }
        }
        let variables = recorded.requirements.filter { !$0.isEnvironment }
        if !variables.isEmpty {
            lines.append("# Batch variables (webauth batch), or record with --keep-values:")
            lines += variables.map { "#   \($0.name): \($0.meaning)" }
        }
        lines += recorded.notes.map { "# Not recorded: \($0)" }
        if recorded.usesPasskey {
            lines.append("# The page asked for a passkey: a replay answers with the virtual authenticator, whose credentials")
            lines.append("# file must hold a credential registered for this account (not your own key's).")
            lines.append("passkey:")
            lines.append("  credentials_file: \(Self.quoted(Self.credentialsFile))")
        }
        lines.append("steps:")
        for step in recorded.steps {
            if let comment = step.comment {
                lines += comment.split(separator: "\n").map { "  # \($0)" }
            }
            lines += Self.item(step.step, indent: "  ")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `step` as a sequence item at `indent`.
    private static func item(_ step: LoginStep, indent: String) -> [String] {
        let fields = Self.fields(step)
        guard let first = fields.first else { return [] }
        return ["\(indent)- \(first)"] + fields.dropFirst().map { "\(indent)  \($0)" }
    }

    /// The step's keys and values, one per line (a `when`'s steps nested under it).
    private static func fields(_ step: LoginStep) -> [String] {
        switch step {
        case .fill(let selector, let value): ["fill: \(quoted(selector))"] + Self.value(value)
        case .type(let selector, let value): ["type: \(quoted(selector))"] + Self.value(value)
        case .click(let selector): ["click: \(quoted(selector))"]
        case .pressEnter(let selector): ["press_enter: \(quoted(selector))"]
        case .waitForElement(let selector): ["wait_for: \(quoted(selector))"]
        case .waitForURL(containing: let text): ["wait_for_url: \(quoted(text))"]
        case .waitForText(let text): ["wait_for_text: \(quoted(text))"]
        case .javaScript(let source): ["javascript: \(quoted(source))"]
        case .chooseAccount(let text): ["choose_account: \(quoted(text))"]
        case .check(let selector): ["check: \(quoted(selector))"]
        case .uncheck(let selector): ["uncheck: \(quoted(selector))"]
        case .select(let selector, let option): ["select: \(quoted(selector))", "option: \(quoted(option))"]
        case .waitForEnabled(let selector): ["wait_for_enabled: \(quoted(selector))"]
        case .waitForURLMatching(let pattern): ["wait_for_url: {matches: \(quoted(pattern))}"]
        case .optional(let inner, let timeout):
            fields(inner) + ["optional: true"] + (timeout.map { ["optional_timeout: \(seconds($0))"] } ?? [])
        case .when(let selector, let steps):
            ["when: \(quoted(selector))", "steps:"] + steps.flatMap { item($0, indent: "  ") }
        }
    }

    /// A value source's keys and values.
    private static func value(_ value: LoginValue) -> [String] {
        [source(value)] + (passing(value).map { ["pass_environment: [\($0.map(quoted).joined(separator: ", "))]"] } ?? [])
    }

    /// A command's `pass_environment`, if it has one.
    private static func passing(_ value: LoginValue) -> [String]? {
        guard case .command(_, let passing) = value, !passing.isEmpty else { return nil }
        return passing
    }

    /// A value source's key and value.
    private static func source(_ value: LoginValue) -> String {
        switch value {
        case .literal(let text): "value: \(quoted(text))"
        case .environment(let name): "env: \(name)"
        case .file(let path): "file: \(quoted(path))"
        case .command(let command, _): "command: \(quoted(command))"
        case .outbox(let url): "outbox: \(quoted(url.absoluteString))"
        case .variable(let name): "var: \(name)"
        case .totp(let source):
            switch source.secret {
            case .environment(let name): "totp: {secret_env: \(name)\(source.digits == 6 ? "" : ", digits: \(source.digits)")}"
            case .file(let path): "totp: {secret_file: \(quoted(path))\(source.digits == 6 ? "" : ", digits: \(source.digits)")}"
            }
        }
    }

    /// `text` as a double-quoted scalar.
    static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    private static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return fraction == 0 ? "\(whole)" : "\(Double(whole) + Double(fraction) / 1e18)"
    }
}
