import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import TestSupport
import Testing
import WebAuthSupport

/// The device authorization grant (RFC 8628) against the development provider: its states as a
/// UI sees them, the phone approving over the provider's verification page, and the provider's
/// slow_down, expired_token and access_denied answers.
@Suite("Device authorization grant", .timeLimit(.minutes(2)))
struct DeviceAuthorizationTests {
    /// A provider that asks for a poll every second.
    static func provider(faults: Set<ProviderFault> = []) async throws -> OpenIDProvider {
        var configuration = DevProviderConfiguration()
        configuration.deviceCodeInterval = 1
        configuration.faults = faults
        return try await OpenIDProvider.start(configuration: configuration)
    }

    static func grant(_ provider: OpenIDProvider) async throws -> DeviceAuthorization {
        let configuration = try await ProviderConfiguration.discover(issuer: provider.issuer, using: URLSessionHTTPClient())
        return try DeviceAuthorization(configuration: configuration, clientID: "webauth-demo", http: URLSessionHTTPClient())
    }

    /// Every state of one grant; the phone approves (or denies) as soon as the code is issued.
    static func states(of grant: DeviceAuthorization, scopes: [String] = ["openid", "profile"],
                       phone: (@Sendable (DeviceCode) async throws -> Void)? = nil) async throws -> [DeviceAuthorizationState] {
        var seen: [DeviceAuthorizationState] = []
        var approval: Task<Void, any Error>?
        for try await state in grant.states(scopes: scopes) {
            seen.append(state)
            if case .codeIssued(let code) = state, let phone { approval = Task { try await phone(code) } }
        }
        try await approval?.value
        return seen
    }

    @Test("the code, then waiting, then the phone approves: tokens and a validated ID token, never the device code in a description")
    func approved() async throws {
        let provider = try await Self.provider()
        let grant = try await Self.grant(provider)
        #expect(grant.configuration.deviceAuthorizationEndpoint?.absoluteString == provider.issuer + "/device_authorization",
                "discovery lists the endpoint")
        let states = try await Self.states(of: grant) { code in
            let page = try await DevicePhone().approve(code.userCode, at: code.verificationURI)
            #expect(page.contains("You can go back to your device"))
        }
        guard case .codeIssued(let code) = states.first, case .authorized(let signedIn) = states.last else {
            Issue.record("states: \(states)")
            return
        }
        #expect(code.userCode.count == 9 && code.verificationURIComplete?.query == "user_code=\(code.userCode)")
        #expect(!"\(code)".contains(code.deviceCode) && !"\(code)".contains(code.userCode))
        #expect(signedIn.idToken?.subject == OpenIDProvider.User.alice.subject, "the ID token was validated and kept")
        #expect(signedIn.idToken?.audiences == ["webauth-demo"])
        #expect(signedIn.accessToken != nil && signedIn.lastTokenResponse?.scope == "openid profile")
        #expect(states.dropFirst().dropLast().allSatisfy { $0 == .waiting(interval: .seconds(1)) })
    }

    @Test("slow_down: the interval grows by 5 s once, and the next poll, that much later, is not slowed down again")
    func slowDown() async throws {
        let provider = try await Self.provider(faults: [.slowDown])
        let states = try await Self.states(of: try await Self.grant(provider)) { code in
            _ = try await DevicePhone().approve(code.userCode, at: code.verificationURI)
        }
        #expect(states.filter { if case .slowedDown = $0 { true } else { false } } == [.slowedDown(interval: .seconds(6))],
                "states: \(states)")
        guard case .authorized = states.last else { Issue.record("states: \(states)"); return }
    }

    @Test("expired_token ends the grant with .expired")
    func expired() async throws {
        let provider = try await Self.provider(faults: [.expiredDeviceCode])
        let states = try await Self.states(of: try await Self.grant(provider))
        #expect(states.count == 2 && states.last == .expired, "states: \(states)")
    }

    @Test("access_denied ends the grant with .denied: by the deny fault, and by the phone's Deny button")
    func denied() async throws {
        let faulty = try await Self.provider(faults: [.deny])
        let byFault = try await Self.states(of: try await Self.grant(faulty))
        guard case .denied(let oauth) = byFault.last else { Issue.record("states: \(byFault)"); return }
        #expect(oauth.isAccessDenied)

        let provider = try await Self.provider()
        let byPerson = try await Self.states(of: try await Self.grant(provider)) { code in
            _ = try await DevicePhone().approve(code.userCode, at: code.verificationURI, allow: false)
        }
        guard case .denied = byPerson.last else { Issue.record("states: \(byPerson)"); return }
    }

    @Test("a provider without a device authorization endpoint is a typed error that says what to do")
    func noEndpoint() async throws {
        let provider = try await Self.provider()
        var configuration = try await ProviderConfiguration.discover(issuer: provider.issuer, using: URLSessionHTTPClient())
        configuration.deviceAuthorizationEndpoint = nil
        #expect(throws: DeviceAuthorizationError.noEndpoint(issuer: provider.issuer)) {
            try DeviceAuthorization(configuration: configuration, clientID: "webauth-demo", http: URLSessionHTTPClient())
        }
        #expect("\(DeviceAuthorizationError.noEndpoint(issuer: provider.issuer))".contains("give it explicitly"))
    }

    @Test("an unknown client is refused at the device authorization endpoint with the provider's error")
    func unknownClient() async throws {
        let provider = try await Self.provider()
        let configuration = try await ProviderConfiguration.discover(issuer: provider.issuer, using: URLSessionHTTPClient())
        let grant = try DeviceAuthorization(configuration: configuration, clientID: "nobody", http: URLSessionHTTPClient())
        await #expect(throws: DeviceAuthorizationError.refused(OAuthError(error: "invalid_client", errorDescription: "client authentication failed",
                                                                          httpStatus: 401))) {
            _ = try await grant.requestCode(scopes: ["openid"])
        }
    }

    /// Whether `text` holds a C0 control (newline aside), DEL or a C1 control.
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test("terminal text: C0, DEL, C1 and whole escape sequences go; everything else stays", arguments: [
        ("WDJB-MJHT", "WDJB-MJHT"),
        ("\u{1B}[2J\u{1B}[HWDJB-MJHT", "WDJB-MJHT"),
        ("\u{1B}]0;owned\u{07}WDJB\u{1B}]8;;https://x\u{1B}\\-MJHT", "WDJB-MJHT"),
        ("WD\u{9B}31mJB\u{9D}title\u{9C}-MJ\u{7F}HT\u{07}\u{00}\n\t", "WDJB-MJHT"),
        ("\u{1B}cWDJB-MJHT\u{1B}", "WDJB-MJHT"),
        ("café ☕ -MJHT", "café ☕ -MJHT"),
    ])
    func terminalText(text: String, shown: String) {
        #expect(TerminalText.strippingControls(text) == shown)
    }

    @Test("a device authorization response's user code and verification URIs lose their control characters as they are read")
    func controlCharactersRemovedWhenRead() throws {
        let json = #"{"device_code":"d","user_code":"\u001b[2JWDJB\u009b8m-MJHT\u0007","verification_uri":"https://id.example/\u001b]0;x\u0007device","#
            + #""verification_uri_complete":"https://id.example/device?user_code=WDJB-MJHT\u001b[0m","expires_in":600}"#
        let code = try JSONDecoder().decode(DeviceCode.self, from: Data(json.utf8))
        #expect(code.userCode == "WDJB-MJHT")
        #expect(code.verificationURI.absoluteString == "https://id.example/device")
        #expect(code.verificationURIComplete?.absoluteString == "https://id.example/device?user_code=WDJB-MJHT")
        #expect(DeviceCode(deviceCode: "d", userCode: "AB\u{1B}[1mCD", verificationURI: code.verificationURI, expiresIn: 1).userCode == "ABCD")
    }

    @Test("verification URIs must be https, or http to a loopback host or to an http issuer's own host", arguments: [
        ("https://id.example/device", "https://id.example", true),
        ("http://127.0.0.1:8080/device", "https://id.example", true),
        ("http://localhost/device", "https://id.example", true),
        ("http://[::1]:9/device", "https://id.example", true),
        ("http://id.lan:8080/device", "http://id.lan:8080", true),
        ("http://device.phish.invalid/device?secret=abc", "https://id.example", false),
        ("http://other.lan/device", "http://id.lan:8080", false),
        ("ftp://id.example/device", "https://id.example", false),
    ])
    func verificationURITransport(uri: String, issuer: String, allowed: Bool) throws {
        let code = DeviceCode(deviceCode: "d", userCode: "u", verificationURI: try #require(URL(string: uri)), expiresIn: 60)
        if allowed {
            try code.checkVerificationURIs(issuer: issuer)
        } else {
            #expect(throws: DeviceAuthorizationError.insecureVerificationURI(URLRedaction.redactingValues(uri))) {
                try code.checkVerificationURIs(issuer: issuer)
            }
        }
        let complete = DeviceCode(deviceCode: "d", userCode: "u", verificationURI: try #require(URL(string: "https://id.example/device")),
                                  verificationURIComplete: URL(string: uri), expiresIn: 60)
        #expect((try? complete.checkVerificationURIs(issuer: issuer)) != nil || !allowed, "verification_uri_complete is checked the same")
        #expect(!"\(DeviceAuthorizationError.insecureVerificationURI(URLRedaction.redactingValues(uri)))".contains("secret=abc"))
    }

    @Test("a verification page on another site than the issuer's gets a warning; the same site (last two labels), none", arguments: [
        ("https://login.example.com/device", "https://id.example.com", false),
        ("https://example.com/device", "https://id.example.com/realms/x", false),
        ("https://device.phish.invalid/device", "https://id.example.com", true),
        ("https://microsoft.com/devicelogin", "https://login.microsoftonline.com/tenant/v2.0", true),
        ("http://127.0.0.1:9/device", "http://127.0.0.1:9", false),
        ("http://127.0.0.2:9/device", "http://127.0.0.1:9", true),
        ("http://localhost:9/device", "http://127.0.0.1:9", true),
    ])
    func siteWarning(uri: String, issuer: String, warned: Bool) throws {
        let code = DeviceCode(deviceCode: "d", userCode: "u", verificationURI: try #require(URL(string: uri)), expiresIn: 60)
        let warning = code.siteWarning(issuer: issuer)
        #expect((warning != nil) == warned, "\(warning ?? "no warning")")
        if let warning { #expect(warning.contains(uri.split(separator: "/")[1]) && !warning.contains("\n")) }
    }

    @Test("the development provider's faults: a plain-http verification page is a typed error; a hostile one comes clean and warned")
    func hostileProvider() async throws {
        let insecure = try await Self.provider(faults: [.insecureVerificationURI])
        await #expect(throws: DeviceAuthorizationError.insecureVerificationURI("http://device.phish.invalid/device")) {
            _ = try await Self.grant(insecure).requestCode(scopes: ["openid"])
        }
        let hostile = try await Self.provider(faults: [.hostileVerificationURI])
        let code = try await Self.grant(hostile).requestCode(scopes: ["openid"])
        #expect(code.userCode.count == 9 && !Self.hasControlCharacter(code.userCode), "\(code.userCode.debugDescription)")
        #expect(code.verificationURI.absoluteString == "https://device.phish.invalid/device")
        #expect(code.siteWarning(issuer: hostile.issuer) != nil)
    }
}
