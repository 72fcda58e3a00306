import DevProvider
import Foundation
import OpenIDConnect
import WebAuthSession
import WebAuthCommandLine

/// `webauth demo --flow device`: the device authorization grant, both sides in one process.
extension Demo {
    /// The "device" asks for a code and polls; the "phone", a page in the engine shown as the
    /// demo's sign-in is, opens the code's link, signs in as alice and allows the device.
    static func signInOnPhone(_ client: OpenIDConnectClient, scopes: [String], options: WebAuthenticationOptions, _ narrator: Narrator,
                              _ camera: Camera) async throws -> AuthState {
        let states = try await client.deviceAuthorization(scopes: scopes)
        let (codes, codeSink) = AsyncStream<DeviceCode>.makeStream()
        return try await withThrowingTaskGroup(of: AuthState?.self) { group in
            group.addTask {
                for try await state in states {
                    switch state {
                    case .codeIssued(let code):
                        narrator.say("device: open \(code.verificationURI.absoluteString) and enter the code \(code.userCode) "
                                     + "(a phone scans the QR code of \(URLRedaction.redactingValues(code.uriForQRCode.absoluteString)))")
                        codeSink.yield(code)
                        codeSink.finish()
                    case .waiting: narrator.say("device: the provider says the code is not approved yet")
                    case .slowedDown(let interval): narrator.say("device: asked to poll less often, every \(interval)")
                    case .authorized(let state): return state
                    case .expired: throw CommandFailure(.timedOut, "the code expired before the phone approved it")
                    case .denied: throw CommandFailure(.cancelled, "the phone denied access")
                    }
                }
                return nil
            }
            group.addTask {
                guard let code = await codes.first(where: { _ in true }) else { return nil }
                try await approve(code, options: options, narrator, camera)
                return nil
            }
            defer { group.cancelAll() }
            // Both sides finish: the device may get its tokens before the phone's page says so.
            var signedIn: AuthState?
            while let outcome = try await group.next() {
                if let state = outcome { signedIn = state }
            }
            guard let signedIn else { throw CommandFailure(.providerError, "the device grant ended without an answer") }
            return signedIn
        }
    }

    /// The phone's side: the verification page with the code filled in, alice's password, Allow.
    private static func approve(_ code: DeviceCode, options: WebAuthenticationOptions, _ narrator: Narrator, _ camera: Camera) async throws {
        // The verification page never redirects: the page ends when the script cancels it.
        let session = WebAuthenticationSession(url: code.uriForQRCode, redirectURI: try RedirectURI("com.example.webauth:/phone"),
                                               options: options)
        narrator.follow(session)
        let script = Task {
            defer { session.cancel() }
            try await session.waitForElement("#user-code")
            narrator.say("phone: the verification page shows the code; continuing")
            await camera.shoot(session, "phone-1-code")
            try await LoginScript([.click("#continue"), .fill("#username", .literal("alice")), .fill("#password", .environment("PASSWORD")),
                                   .click("#sign-in"), .waitForElement("#allow")])
                .run(in: session, environment: ["PASSWORD": OpenIDProvider.User.alice.password], http: Demo.http)
            await camera.shoot(session, "phone-2-allow")
            narrator.say("phone: signed in as alice; allowing the device")
            try await LoginScript([.click("#allow"), .waitForText("You can go back to your device")]).run(in: session, http: Demo.http)
            narrator.say("phone: the page says the device is signed in")
        }
        _ = try? await session.start()
        try await script.value
    }
}
