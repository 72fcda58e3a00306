import CWebKitGTK
import Foundation
import OpenIDConnect
import Testing
@testable import SecurityKeys
@testable import WebAuthSession

extension EngineTests {
    /// A person's popup or kiosk with a security key: the page's request goes through libfido2 to
    /// a software key (no /dev/uhid here), and the person sees "Touch your security key", the PIN
    /// field when the key asks, and Cancel. The test touches the key and presses the dialog's
    /// buttons, as a person would.
    @Suite("Passkeys: security keys in the popup", .serialized)
    struct PasskeySecurityKeyPageTests {
        static func session(key: SoftwareSecurityKey, presentation: WebAuthenticationOptions.Presentation = .window())
            async throws -> (WebAuthenticationSession, Task<RedirectCallback, any Error>, EventRecorder) {
            let site = try await TestSite.start(host: "localhost")
            var options = TestEngine.options(presentation)
            options.securityKeys = .software(key)
            let session = try TestEngine.session(site.page(body: "<p>security key</p>"), redirectURI: "com.example:/cb", options: options)
            let recorder = EventRecorder(session)
            return (session, Task { try await session.start() }, recorder)
        }

        @WebKitActor
        static func dialog(of session: WebAuthenticationSession) throws -> SecurityKeyDialog {
            try #require(session.page?.passkeys.securityKeyDialog)
        }

        @WebKitActor
        static func hasDialog(_ session: WebAuthenticationSession) -> Bool {
            session.page?.passkeys.securityKeyDialog != nil
        }

        @Test("the dialog asks for a touch; touched, the page has its credential and the dialog closes (popup and kiosk)",
              arguments: [WebAuthenticationOptions.Presentation.window(), .kiosk()])
        func touched(presentation: WebAuthenticationOptions.Presentation) async throws {
            let key = try SoftwareSecurityKey()
            let (session, started, recorder) = try await Self.session(key: key, presentation: presentation)
            let request = Task { try await session.awaitInPage("return (await navigator.credentials.create(\(PasskeyPages.creation()))).type;") }
            await key.awaitingTouch()
            let dialog = try await Self.dialog(of: session)
            #expect(await dialog.shownMessage == "Touch your security key")
            #expect(await dialog.isVisible)
            key.touch()
            #expect(try await request.value == .string("public-key"))
            #expect(await !Self.hasDialog(session))
            #expect(await recorder.events.contains(.passkey(operation: .create, relyingParty: "localhost", outcome: .answered(.securityKey))))
            #expect(await recorder.events.contains(.securityKeyDialog(.closed)))
            session.cancel()
            _ = await started.result
        }

        @Test("Cancel in the dialog: the page gets NotAllowedError and the key stops waiting")
        func cancelled() async throws {
            let key = try SoftwareSecurityKey()
            let (session, started, _) = try await Self.session(key: key)
            let request = Task { try await session.awaitInPage("return await attempt(() => navigator.credentials.create(\(PasskeyPages.creation())));") }
            await key.awaitingTouch()
            let dialog = try await Self.dialog(of: session)
            await dialog.pressCancel()
            #expect(try await request.value["error"] == .string("NotAllowedError"))
            #expect(!key.device.isAwaitingTouch)
            session.cancel()
            _ = await started.result
        }

        @Test("a key that asks for its PIN: the dialog's PIN field, a wrong PIN asked again with the tries left, then the credential")
        func pin() async throws {
            let key = try SoftwareSecurityKey(pin: "2468", alwaysTouched: true)
            let (session, started, recorder) = try await Self.session(key: key)
            let request = Task { try await session.awaitInPage("return (await navigator.credentials.create(\(PasskeyPages.creation()))).type;") }
            for (pin, asked) in [("1357", SecurityKeyDialogState.pin(triesLeft: nil)), ("2468", .pin(triesLeft: 7))] {
                _ = await recorder.first { $0 == .securityKeyDialog(asked) }
                let dialog = try await Self.dialog(of: session)
                #expect(await dialog.enter(pin: pin), "the field is emptied at once")
            }
            #expect(try await request.value == .string("public-key"))
            session.cancel()
            _ = await started.result
        }

        @Test("a key pulled out while the dialog waits: NotAllowedError, the dialog closes")
        func pulledOut() async throws {
            let key = try SoftwareSecurityKey()
            let (session, started, _) = try await Self.session(key: key)
            let request = Task { try await session.awaitInPage("return await attempt(() => navigator.credentials.get(\(PasskeyPages.request())));") }
            await key.awaitingTouch()
            key.unplug()
            #expect(try await request.value["error"] == .string("NotAllowedError"))
            #expect(await !Self.hasDialog(session))
            session.cancel()
            _ = await started.result
        }
    }
}

/// What a person does with the dialog, for the tests.
extension SecurityKeyDialog {
    /// The dialog's main line.
    var shownMessage: String { String(cString: gtk_label_get_text(cwk_label(message))) }
    /// Whether its window is on screen.
    var isVisible: Bool { gtk_widget_get_visible(window) != 0 }
    /// Presses Cancel.
    func pressCancel() { gtk_button_clicked(cwk_button(cancelButton)) }
    /// Types `pin` and presses Continue; returns whether the field is empty afterwards.
    func enter(pin: String) -> Bool {
        gtk_entry_set_text(cwk_entry(pinField), pin)
        gtk_button_clicked(cwk_button(continueButton))
        return String(cString: gtk_entry_get_text(cwk_entry(pinField))).isEmpty
    }
}
