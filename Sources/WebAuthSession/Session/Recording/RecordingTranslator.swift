import SignInFiles

/// Turns the recorder's events (``RecordedEvent``), in order, into a ``RecordedScript``: fill or
/// type by what the page did with the keys, a password from the environment, a one-time code
/// from a TOTP secret, other text as a batch variable (or kept), a wait for each element seen
/// disabled and for each new page's URL, and a mark on screens that may not come back.
struct RecordingTranslator {
    /// Words of a screen that is answered once and may not be shown again (consent, "stay signed in?").
    private static let oneOffWords = ["consent", "allow", "authorize", "authorise", "accept", "stay signed in", "keep me", "remember",
                                      "trust this", "don't ask", "don’t ask"]

    private let options: RecordingOptions
    private var result: RecordedScript
    private var previous: RecordedEvent?
    private var sawPassword = false

    private init(options: RecordingOptions, host: String) {
        self.options = options
        result = RecordedScript(steps: [], requirements: [], recordedVariables: [:], usesPasskey: false, notes: [], host: host)
    }

    /// The script of `events`, recorded on a sign-in that started at `host`.
    static func script(of events: [RecordedEvent], host: String, options: RecordingOptions) -> RecordedScript {
        var translator = RecordingTranslator(options: options, host: host)
        for event in events { translator.add(event) }
        return translator.result
    }

    private mutating func add(_ event: RecordedEvent) {
        switch event.kind {
        case .page: return
        case .note: result.notes.append(event.text ?? "")
        case .passkey: result.usesPasskey = true
        case .field, .enter, .click, .check, .uncheck, .select:
            guard let selector = event.selector, let step = step(for: event, selector: selector) else { return }
            var comment: String?
            if let previous, previous.page != event.page {
                comment = event.title.isEmpty ? nil : event.title
                if previous.path != event.path, event.path != "/" { append(.waitForURL(containing: event.path), comment: comment); comment = nil }
            } else if previous == nil, !event.title.isEmpty {
                comment = event.title
            }
            if event.waitEnabled == true, event.kind != .field {
                append(.waitForEnabled(selector), comment: comment)
                comment = nil
            }
            let words = (event.title + " " + (event.text ?? "")).lowercased()
            let oneOff = event.kind == .click && Self.oneOffWords.contains { words.contains($0) }
            if oneOff {
                comment = [comment, "a screen that may not come back once answered: consider optional: true"].compactMap { $0 }.joined(separator: "\n")
            }
            if let note = note(for: step) { comment = [comment, note].compactMap { $0 }.joined(separator: "\n") }
            result.steps.append(RecordedScript.Step(step: step, comment: comment, oneOff: oneOff))
            previous = event
        }
    }

    private mutating func append(_ step: LoginStep, comment: String?) {
        result.steps.append(RecordedScript.Step(step: step, comment: comment, oneOff: false))
    }

    /// The step an action becomes.
    private mutating func step(for event: RecordedEvent, selector: String) -> LoginStep? {
        switch event.kind {
        case .field:
            let value = value(of: event, selector: selector)
            return event.keys == true ? .type(selector, value) : .fill(selector, value)
        case .enter: return .pressEnter(selector)
        case .check: return .check(selector)
        case .uncheck: return .uncheck(selector)
        case .select: return .select(selector, option: event.option ?? "")
        case .click:
            // An entry found only by position (an account chooser's list): its text finds it again.
            if event.indexed == true, let text = event.text, !text.isEmpty { return .chooseAccount(text) }
            return .click(selector)
        case .page, .note, .passkey: return nil
        }
    }

    /// Where a field's text comes from in the script: never the password or the one-time code.
    private mutating func value(of event: RecordedEvent, selector: String) -> LoginValue {
        if event.secret == true {
            sawPassword = true
            let name = uniqueName(Self.environmentName(event.name, otherwise: "PASSWORD"), environment: true)
            result.requirements.append(.init(name: name, meaning: "the password typed into \(selector)", isEnvironment: true))
            return .environment(name)
        }
        let digits = event.digits ?? 0
        if event.autocomplete == "one-time-code" || (digits > 0 && sawPassword) {
            let name = uniqueName("TOTP_SECRET", environment: true)
            result.requirements.append(.init(name: name, meaning: "the account's base32 TOTP secret (from its otpauth:// URI), for \(selector)",
                                             isEnvironment: true))
            return .totp(TOTPSource(secret: .environment(name), digits: (6...8).contains(digits) ? digits : 6))
        }
        let text = event.value ?? ""
        if options.keepValues { return .literal(text) }
        let name = uniqueName(Self.environmentName(event.name, otherwise: "value").lowercased(), environment: false)
        result.requirements.append(.init(name: name, meaning: "the text typed into \(selector)", isEnvironment: false))
        result.recordedVariables[name] = text
        return .variable(name)
    }

    /// The comment a placeholder needs.
    private func note(for step: LoginStep) -> String? {
        switch step {
        case .fill(_, .totp(let source)), .type(_, .totp(let source)):
            if case .environment(let name) = source.secret { return "a one-time code: export \(name), the account's base32 TOTP secret" }
            return nil
        case .fill(_, .environment(let name)), .type(_, .environment(let name)): return "export \(name) before a replay"
        case .fill(_, .variable(let name)), .type(_, .variable(let name)): return "var \(name): a batch entry's value, or --keep-values"
        default: return nil
        }
    }

    /// `name` (a field's name or id) as an environment variable's name: `current-password` → `CURRENT_PASSWORD`.
    static func environmentName(_ name: String?, otherwise fallback: String) -> String {
        let letters = (name ?? "").uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }
        let trimmed = String(letters).split(separator: "_").joined(separator: "_")
        guard let first = trimmed.first, first.isLetter else { return fallback }
        return trimmed
    }

    /// `name`, or `name_2`, `name_3`… when a requirement of that kind has it already.
    private func uniqueName(_ name: String, environment: Bool) -> String {
        let taken = Set(result.requirements.filter { $0.isEnvironment == environment }.map(\.name))
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = "\(name)_\(number)"
            number += 1
        }
        return candidate
    }
}
