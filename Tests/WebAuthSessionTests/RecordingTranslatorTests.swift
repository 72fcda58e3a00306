import Foundation
import Testing
@testable import WebAuthSession

/// What the recorder makes of what it heard (``RecordingTranslator``), without a page: where each
/// typed value comes from in the script, and the waits and marks it adds.
@Suite("Recorded events as a login script")
struct RecordingTranslatorTests {
    static func field(_ selector: String, name: String, value: String?, page: String = "p1", secret: Bool = false,
                      autocomplete: String = "", keys: Bool = false) -> RecordedEvent {
        let digits = value.map { $0.count >= 6 && $0.count <= 8 && $0.allSatisfy(\.isNumber) ? $0.count : 0 } ?? 0
        return RecordedEvent(kind: .field, page: page, host: "id.example.com", path: "/login", title: "Sign in", selector: selector, indexed: false,
                             tag: "input", type: secret ? "password" : "text", autocomplete: autocomplete, name: name, waitEnabled: false,
                             secret: secret, value: value, digits: digits, keys: keys)
    }

    static func click(_ selector: String, page: String, path: String = "/login", title: String = "Sign in", text: String = "",
                      indexed: Bool = false, waitEnabled: Bool = false) -> RecordedEvent {
        RecordedEvent(kind: .click, page: page, host: "id.example.com", path: path, title: title, selector: selector, indexed: indexed,
                      tag: "button", waitEnabled: waitEnabled, text: text)
    }

    @Test("a password from the environment, 6 to 8 digits after it a TOTP placeholder, other text a variable unless kept; names made unique")
    func values() {
        let events = [Self.field("#user", name: "user", value: "123456"), Self.field("#pw", name: "current-password", value: nil, secret: true),
                      Self.field("#pw2", name: "current-password", value: nil, secret: true), Self.field("#otp", name: "otp", value: "654321", keys: true)]
        let recorded = RecordingTranslator.script(of: events, host: "id.example.com", options: RecordingOptions())
        #expect(recorded.script.steps == [.fill("#user", .variable("user")), .fill("#pw", .environment("CURRENT_PASSWORD")),
                                          .fill("#pw2", .environment("CURRENT_PASSWORD_2")),
                                          .type("#otp", .totp(TOTPSource(secret: .environment("TOTP_SECRET"))))])
        #expect(recorded.recordedVariables == ["user": "123456"], "digits before any password are not a one-time code")
        #expect(!recorded.text.contains("123456") && !recorded.text.contains("654321"), "\(recorded.text)")
        let kept = RecordingTranslator.script(of: events, host: "id.example.com", options: RecordingOptions(keepValues: true))
        #expect(kept.script.steps.first == .fill("#user", .literal("123456")) && kept.recordedVariables.isEmpty)
        #expect(!kept.text.contains("654321"), "a one-time code is never kept")
    }

    @Test("a new page's URL is waited for, a late-enabled button too; a position-only entry is chosen by its text; consent is marked and made optional")
    func waitsAndMarks() {
        let events = [Self.click("#next", page: "p1"), Self.click("body > ul > li:nth-of-type(2)", page: "p2", path: "/choose", title: "Choose an account",
                                                                   text: "bob@example.com", indexed: true),
                      Self.click("#go", page: "p2", path: "/choose", waitEnabled: true),
                      Self.click("#allow", page: "p3", path: "/consent", title: "Allow access?", text: "Allow")]
        let recorded = RecordingTranslator.script(of: events, host: "id.example.com", options: RecordingOptions())
        #expect(recorded.script.steps == [.click("#next"), .waitForURL(containing: "/choose"), .chooseAccount("bob@example.com"),
                                          .waitForEnabled("#go"), .click("#go"), .waitForURL(containing: "/consent"), .click("#allow")])
        #expect(recorded.steps.map(\.oneOff) == [false, false, false, false, false, false, true])
        #expect(recorded.makingOptional([6]).script.steps.last == .optional(.click("#allow")))
        #expect(recorded.makingOptional([6]).text.contains("- click: \"#allow\"\n    optional: true"))
    }
}
