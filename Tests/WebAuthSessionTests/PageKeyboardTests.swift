import DevProvider
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthSession

extension EngineTests {
    @Suite("Page keyboard")
    struct PageKeyboardTests {
        /// A page whose field logs every key event it gets (type, key, isTrusted) and its value.
        static let recorder = """
            <input id='field' autofocus><pre id='log'></pre>
            <script>
            const field = document.getElementById('field');
            const log = [];
            for (const type of ['keydown', 'keypress', 'input', 'keyup']) {
                field.addEventListener(type, (event) => {
                    log.push(type + ':' + (event.key ?? event.inputType) + ':' + event.isTrusted);
                    document.getElementById('log').textContent = log.join('\\n') + '\\nvalue=' + field.value;
                });
            }
            </script>
            """

        /// Types into the recorder page in a session shown as `presentation` and returns the log.
        private func typeIntoRecorder(_ presentation: WebAuthenticationOptions.Presentation) async throws -> [String] {
            let site = try await TestSite.start()
            let session = try TestEngine.session(site.page(body: Self.recorder), redirectURI: "com.example:/cb",
                                                 options: TestEngine.options(presentation))
            let run = Task { try await session.start() }
            defer { session.cancel() }
            try await session.waitForElement("#field")
            try await session.evaluateJavaScript("document.getElementById('field').focus()")
            let sent = await Task { @WebKitActor in
                guard let view = session.page?.view else { return false }
                let keyboard = PageKeyboard(view: view)
                return keyboard.type("aB") && keyboard.press(.backspace) && keyboard.press(.character("c"))
                    && keyboard.press(.enter)
            }.value
            #expect(sent)
            try await session.waitForText("keyup:Enter:")
            let log = try await session.evaluateJavaScript("document.getElementById('log').textContent")
            session.cancel()
            _ = try? await run.value
            return (log.stringValue ?? "").split(separator: "\n").map(String.init)
        }

        @Test("keys reach the focused field as trusted events, headless and in the popup", arguments: [WebAuthenticationOptions.Presentation.headless, .window()])
        func trustedKeys(presentation: WebAuthenticationOptions.Presentation) async throws {
            let log = try await typeIntoRecorder(presentation)
            #expect(log.last == "value=ac")
            let events = log.dropLast()
            #expect(events.contains("keydown:a:true"))
            #expect(events.contains("keydown:B:true"))
            #expect(events.contains("keydown:Backspace:true"))
            #expect(events.contains("keydown:Enter:true"))
            #expect(events.contains("input:insertText:true"))
            #expect(events.contains("input:deleteContentBackward:true"))
            #expect(events.contains("keyup:c:true"))
            #expect(events.allSatisfy { $0.hasSuffix(":true") }, "every event is trusted: \(Array(events))")
        }
    }
}
