import Foundation
import OpenIDConnect
import SecretGate
import Testing
@testable import WebAuthn
import WebAuthnTestSupport

/// The relying party's checks the development provider makes: each way a response can be
/// wrong is refused.
@Suite("Passkey protocol: the relying party's checks")
struct PasskeyRelyingPartyTests {
    static let verifier = RelyingPartyVerifier(relyingPartyID: "example.com", origins: ["https://login.example.com"])

    /// A registration and an assertion made by a virtual authenticator with `settings`, from `origin`.
    static func responses(_ settings: VirtualAuthenticatorSettings = .init(), origin: String = "https://login.example.com/")
        async throws -> (registration: JSONValue, assertion: JSONValue) {
        let client = WebAuthnClient(origin: WebAuthnOrigin(url: origin)!, authenticator: try VirtualAuthenticator(settings: settings),
                                    gate: SecretGate(pageHosts: [WebAuthnOrigin(url: origin)!.host], drivenByLoginScript: true))
        let registration = try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation()))
        let assertion = try await client.get(CredentialRequestOptions(json: PasskeyOptions.request()))
        return (registration, assertion)
    }

    static func replacing(_ path: [String], in value: JSONValue, with replacement: JSONValue) -> JSONValue {
        guard let first = path.first, case .object(var members) = value else { return replacement }
        members[first] = replacing(Array(path.dropFirst()), in: members[first] ?? .null, with: replacement)
        return .object(members)
    }

    @Test("another challenge, another origin, a cross-origin frame or a registration replayed as a sign-in: refused")
    func clientData() async throws {
        let (registration, assertion) = try await Self.responses()
        let one = Data(repeating: 1, count: 32), two = Data(repeating: 2, count: 32)
        #expect(throws: RelyingPartyVerifier.Failure.self) { try Self.verifier.verifyRegistration(registration, challenge: two) }
        let credential = try Self.verifier.verifyRegistration(registration, challenge: one)
        #expect(throws: RelyingPartyVerifier.Failure.self) { try Self.verifier.verifyAssertion(assertion, challenge: one, credential: credential) }
        let elsewhere = RelyingPartyVerifier(relyingPartyID: "example.com", origins: ["https://example.com"])
        #expect(throws: RelyingPartyVerifier.Failure.self) { try elsewhere.verifyAssertion(assertion, challenge: two, credential: credential) }
        let crossOrigin = CollectedClientData(type: .get, challenge: two, origin: "https://login.example.com", crossOrigin: true)
        let framed = Self.replacing(["response", "clientDataJSON"], in: assertion, with: .string(Base64URL.encode(crossOrigin.json)))
        #expect(throws: RelyingPartyVerifier.Failure.self) { try Self.verifier.verifyAssertion(framed, challenge: two, credential: credential) }
    }

    @Test("a changed signature, another relying party's authenticator data, an old counter, no verification when required: refused")
    func authenticator() async throws {
        let (registration, assertion) = try await Self.responses()
        var credential = try Self.verifier.verifyRegistration(registration, challenge: Data(repeating: 1, count: 32))
        let two = Data(repeating: 2, count: 32)
        let encoded = try #require(assertion["response"]?["signature"]?.stringValue)
        var signature = try #require(Base64URL.decode(encoded))
        signature[signature.count - 1] ^= 1
        let tampered = Self.replacing(["response", "signature"], in: assertion, with: .string(Base64URL.encode(signature)))
        #expect(throws: RelyingPartyVerifier.Failure.self) { try Self.verifier.verifyAssertion(tampered, challenge: two, credential: credential) }
        let other = RelyingPartyVerifier(relyingPartyID: "login.example.com", origins: ["https://login.example.com"])
        #expect(throws: RelyingPartyVerifier.Failure.self) { try other.verifyAssertion(assertion, challenge: two, credential: credential) }
        credential.signCount = 5
        #expect { try Self.verifier.verifyAssertion(assertion, challenge: two, credential: credential) } throws: { "\($0)".contains("cloned") }
        let (unverifiedRegistration, _) = try await Self.responses(.init(userVerification: false))
        #expect(throws: RelyingPartyVerifier.Failure.self) {
            try Self.verifier.verifyRegistration(unverifiedRegistration, challenge: Data(repeating: 1, count: 32), requireUserVerification: true)
        }
    }
}
