import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

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
        let configuration = try await ProviderConfiguration.discover(issuer: provider.issuer)
        return try DeviceAuthorization(configuration: configuration, clientID: "webauth-demo")
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
        var configuration = try await ProviderConfiguration.discover(issuer: provider.issuer)
        configuration.deviceAuthorizationEndpoint = nil
        #expect(throws: DeviceAuthorizationError.noEndpoint(issuer: provider.issuer)) {
            try DeviceAuthorization(configuration: configuration, clientID: "webauth-demo")
        }
        #expect("\(DeviceAuthorizationError.noEndpoint(issuer: provider.issuer))".contains("give it explicitly"))
    }

    @Test("an unknown client is refused at the device authorization endpoint with the provider's error")
    func unknownClient() async throws {
        let provider = try await Self.provider()
        let configuration = try await ProviderConfiguration.discover(issuer: provider.issuer)
        let grant = try DeviceAuthorization(configuration: configuration, clientID: "nobody")
        await #expect(throws: DeviceAuthorizationError.refused(OAuthError(error: "invalid_client", errorDescription: "client authentication failed",
                                                                          httpStatus: 401))) {
            _ = try await grant.requestCode(scopes: ["openid"])
        }
    }
}
