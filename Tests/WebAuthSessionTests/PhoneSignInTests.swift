import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// The device grant in the engine: the QR code, the kiosk's "sign in with your phone", and
    /// django-oauth-toolkit's device grant (explicit endpoint, no ID token).
    @Suite("Sign in with a phone (device grant)")
    struct PhoneSignIn {
        @Test("a QR code has the size of its version and the three finder patterns; the terminal text is two rows a line")
        func qrCode() throws {
            let qr = try #require(QRCode("http://127.0.0.1:8080/device?user_code=WDJB-MJHT"))
            #expect(qr.size == 33, "version 4 at level M holds 47 bytes in 33×33 modules")
            for (row, column) in [(0, 0), (0, qr.size - 7), (qr.size - 7, 0)] {
                // A finder pattern: a dark 7×7 ring, a light ring, a dark 3×3 centre.
                #expect(qr.isDark(row: row, column: column) && !qr.isDark(row: row + 1, column: column + 1)
                        && qr.isDark(row: row + 3, column: column + 3))
            }
            #expect(!qr.isDark(row: -1, column: 0) && !qr.isDark(row: qr.size, column: 0), "the quiet zone is light")
            #expect(qr.terminalText.split(separator: "\n").count == (qr.size + 4 + 1) / 2)
            #expect(QRCode(String(repeating: "x", count: 5000)) == nil, "too long for any QR code")
        }

        @Test("the kiosk's phone screen: a code the phone denies is replaced by a new one; the next is allowed and signs the visitor in")
        func kioskPhoneVisitor() async throws {
            var configuration = DevProviderConfiguration()
            configuration.deviceCodeInterval = 1
            let provider = try await OpenIDProvider.start(configuration: configuration)
            let client = OpenIDConnectClient(issuer: provider.issuer, clientID: "webauth-demo",
                                             redirectURI: try RedirectURI("com.example.webauth:/callback"))
            _ = TestEngine.options()  // the private Xvfb
            let kiosk = await KioskStation(client: client)
            let events = kiosk.events
            let phone = Task {
                var codes: [DeviceCode] = []
                for await event in events {
                    guard case .phoneCodeShown(let code) = event else { continue }
                    codes.append(code)
                    _ = try await DevicePhone().approve(code.userCode, at: code.verificationURI, allow: codes.count == 2)
                    if codes.count == 2 { break }
                }
                return codes
            }
            let signedIn = try await kiosk.nextPhoneVisitor()
            let codes = try await phone.value
            #expect(codes.count == 2 && codes[0].userCode != codes[1].userCode, "the denied code was replaced")
            #expect(signedIn.idToken?.subject == OpenIDProvider.User.alice.subject)
            #expect(await WebAuthEngine.diagnostics.toplevelWindows == 0, "the phone screen is gone")
        }
    }
}

extension EngineTests.DjangoOAuthToolkit {
    @Test("the device grant: the endpoint given by hand (discovery omits it), approved on Django's own pages in a headless view; OAuth-only, no ID token")
    func deviceGrant() async throws {
        let server = try await PythonFixtureServer(script: "dot_provider")
        let issuer = server.url("/o").absoluteString
        let client = OpenIDConnectClient(issuer: issuer, clientID: "webauth-device", redirectURI: try RedirectURI(Self.redirect))
        #expect(try await client.providerConfiguration().deviceAuthorizationEndpoint == nil, "django-oauth-toolkit's discovery does not list it")
        await #expect(throws: DeviceAuthorizationError.noEndpoint(issuer: issuer)) { _ = try await client.deviceAuthorization() }

        let states = try await client.deviceAuthorization(scopes: ["openid"], endpoint: server.url("/o/device-authorization/"))
        var phone: Task<Void, any Error>?
        var last: DeviceAuthorizationState?
        for try await state in states {
            last = state
            if case .codeIssued(let code) = state { phone = Task { try await Self.approveOnDjango(code) } }
        }
        try await phone?.value
        guard case .authorized(let signedIn) = last else { Issue.record("ended with \(String(describing: last))"); return }
        #expect(signedIn.idToken == nil, "django-oauth-toolkit's device grant issues no ID token: the OAuth-only path")
        #expect(signedIn.accessToken != nil && signedIn.configuration.deviceAuthorizationEndpoint == server.url("/o/device-authorization/"))
    }

    /// A person at Django's verification view: Django's login, the code (filled in from the
    /// complete URI), then Accept; the page says the device is authorized.
    static func approveOnDjango(_ code: DeviceCode) async throws {
        let session = WebAuthenticationSession(url: code.uriForQRCode, redirectURI: try RedirectURI("com.example.webauth:/phone"),
                                               options: TestEngine.options())
        let script = Task {
            defer { session.cancel() }
            try await LoginScript([
                .fill("#id_username", .literal("alice")), .fill("#id_password", .environment("PASSWORD")), .click("#sign-in"),
                .waitForElement("#id_user_code"), .click("button[type=submit]"), .click("button[value=accept]"),
                .waitForText("Device Authorized"),
            ]).run(in: session, environment: ["PASSWORD": "wonderland"])
        }
        _ = try? await session.start()
        try await script.value
    }
}
