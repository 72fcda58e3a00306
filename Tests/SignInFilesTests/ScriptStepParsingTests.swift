import Foundation
@testable import SignInFiles
import TestSupport
import Testing

/// The new keys of the script format, read by the Swift parser: what they mean, and their errors
/// with line and column.
@Suite("Login script steps (parsing)")
struct ScriptStepParsingTests {
    /// `text` as a script file, read.
    func parse(_ text: String) throws(LoginScriptFileError) -> LoginScript {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("script-\(UUID().uuidString).yaml")
        try? text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try LoginScript(contentsOfFile: file.path)
    }

    /// A script in WebAuthSessionTests' Fixtures/login-scripts/ (read by path: the engine's tests run them).
    func loginScriptFixture(_ name: String) throws -> LoginScript {
        try LoginScript(contentsOfFile: Guides.root.appendingPathComponent("Tests/WebAuthSessionTests/Fixtures/login-scripts/\(name).yaml").path)
    }

    @Test("the fixtures read as the steps they say")
    func fixtures() throws {
        let screens = try loginScriptFixture("screens-that-may-appear")
        #expect(screens.optionalTimeout == .seconds(2))
        #expect(screens.steps == [.click("#sign-in"), .optional(.click("#stay-yes")),
                                  .when("#accounts", steps: [.chooseAccount("alice@example.com")]), .click("#finish")])
        #expect(try loginScriptFixture("form-controls").steps == [
            .check("#consent"), .uncheck("#newsletter"), .check("#already"), .select("#country", option: "Norway"),
            .select("#language", option: "nb"), .click("#allow"),
        ])
        #expect(try loginScriptFixture("enabled-later").steps == [
            .waitForEnabled("#go"), .click("#go"), .waitForURLMatching("[?&]consent=[0-9]+$"), .click("#finish"),
        ])
    }

    @Test("wait_for_url's text still means contains; optional_timeout per step; the script's default is 3 s")
    func forms() throws {
        let script = try parse("steps:\n  - wait_for_url: /consent\n  - fill: '#otp'\n    env: OTP\n    optional: true\n    optional_timeout: 1.5\n")
        #expect(script.steps == [.waitForURL(containing: "/consent"), .optional(.fill("#otp", .environment("OTP")), timeout: .milliseconds(1500))])
        #expect(script.optionalTimeout == .seconds(3))
    }

    @Test("mistakes in the new keys are errors with line and column", arguments: [
        ("steps:\n  - wait_for_url:\n      matches: '(unclosed'\n", "line 3, column 16: step 1, wait_for_url, matches: not a valid regular expression"),
        ("steps:\n  - wait_for_url: {match: 'x'}\n", "line 2, column 19: step 1, wait_for_url: unknown key 'match' (did you mean 'matches'?)"),
        ("steps:\n  - javascript: '1'\n    optional: true\n", "line 2, column 5: step 1: optional goes with fill, type, click, press_enter, wait_for, check, uncheck, select or wait_for_enabled only, not with javascript"),
        ("steps:\n  - click: '#a'\n    optional_timeout: 2\n", "line 3, column 23: step 1, optional_timeout: optional_timeout goes with optional: true"),
        ("steps:\n  - click: '#a'\n    option: x\n", "line 2, column 5: step 1: option goes with select only, not with click"),
        ("steps:\n  - select: '#a'\n", "line 2, column 5: step 1: missing 'option'"),
        ("steps:\n  - when: '#a'\n    steps:\n      - clik: '#b'\n", "line 4, column 9: step 1, step 1: unknown key 'clik' (did you mean 'click'?)"),
        ("optional_timeout: 0\nsteps: []\n", "line 1, column 19: optional_timeout: optional_timeout must be positive"),
        // The login-script-yaml fuzz target's first crash: a wait past an Int of
        // milliseconds stopped the process in the conversion instead of being an error.
        ("settle_time: 25555555555555555555555555555555555555555555555555555555555555555.5\nsteps: []\n",
         "line 1, column 14: settle_time: settle_time must be at most 86400 seconds (a day)"),
        ("step_timeout: .inf\nsteps: []\n", "line 1, column 15: step_timeout: step_timeout must be at most 86400 seconds (a day)"),
        ("optional_timeout: 1e300\nsteps: []\n", "line 1, column 19: optional_timeout: optional_timeout must be at most 86400 seconds (a day)"),
        ("steps:\n  - click: '#a'\n    optional: true\n    optional_timeout: 86401\n",
         "line 4, column 23: step 1, optional_timeout: optional_timeout must be at most 86400 seconds (a day)"),
    ])
    func mistakes(text: String, message: String) {
        do {
            _ = try parse(text)
            Issue.record("parsed: \(text)")
        } catch {
            guard case .invalid(_, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason.hasPrefix(message), "\(reason)")
        }
    }
}
