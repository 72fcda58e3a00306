import Foundation
import OpenIDConnect
import SecretGate
@testable import SecurityKeys
import Testing
import WebAuthSupport
@testable import WebAuthn
import WebAuthnTestSupport

/// The real libfido2 (Debian's 1.12) talking CTAPHID, through its custom I/O, to a software key
/// answered by the virtual authenticator: these machines have no /dev/uhid, so no software key
/// can be plugged in as USB. A test touches the key, pulls it out, or cancels, as a person would.
@Suite("Passkey protocol: security keys through libfido2")
struct PasskeySecurityKeyTests {
    static let gate = SecretGate(pageHosts: [])  // a person's page: no login script, and a security key needs none

    static func client(_ key: SoftwareSecurityKey) -> WebAuthnClient {
        WebAuthnClient(origin: PasskeyOptions.origin, authenticator: SecurityKeyAuthenticator(source: .software(key)), gate: gate)
    }

    @Test("libfido2 registers and signs in with the touched key; the relying party verifies both", arguments: COSEAlgorithm.allCases)
    func registerThenSignIn(algorithm: COSEAlgorithm) async throws {
        let key = try SoftwareSecurityKey()
        let client = Self.client(key)
        let creation = Task { try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation(algorithms: [algorithm.rawValue], residentKey: "required"))) }
        await key.awaitingTouch()
        key.touch()
        let registration = try await creation.value
        let verifier = RelyingPartyVerifier(relyingPartyID: "example.com", origins: ["https://login.example.com"])
        let credential = try verifier.verifyRegistration(registration, challenge: Data(repeating: 1, count: 32))
        #expect(credential.publicKey.algorithm == algorithm)
        #expect(registration["authenticatorAttachment"] == .string("cross-platform"))
        let assertion = Task { try await client.get(CredentialRequestOptions(json: PasskeyOptions.request())) }
        await key.awaitingTouch()
        key.touch()
        let verified = try verifier.verifyAssertion(try await assertion.value, challenge: Data(repeating: 2, count: 32), credential: credential)
        #expect(verified.signCount == 1)
        #expect(verified.userHandle == Data([1, 2, 3]))
    }

    @Test("a key pulled out while it waits for a touch ends the request with NotAllowedError, not a hang")
    func pulledOut() async throws {
        let key = try SoftwareSecurityKey()
        let client = Self.client(key)
        let creation = Task { try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation())) }
        await key.awaitingTouch()
        key.unplug()
        await #expect { try await creation.value } throws: { error in
            guard case .authenticator(.unavailable) = error as? WebAuthnClientError else { return false }
            return (error as? WebAuthnClientError)?.domError.name == .notAllowed
        }
    }

    @Test("cancelled while the key waits (the person's Cancel, the page's timeout): the key hears CANCEL and stops waiting")
    func cancelled() async throws {
        let key = try SoftwareSecurityKey()
        let client = Self.client(key)
        let creation = Task { try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation())) }
        await key.awaitingTouch()
        creation.cancel()
        await #expect { try await creation.value } throws: { ($0 as? WebAuthnClientError)?.domError.name == .notAllowed }
        #expect(!key.device.isAwaitingTouch, "libfido2 sent CTAPHID_CANCEL")
        #expect(try key.authenticator.credentials.isEmpty)
    }

    @Test("a credential the key already holds: InvalidStateError through libfido2's status")
    func excluded() async throws {
        let key = try SoftwareSecurityKey(alwaysTouched: true)
        let client = Self.client(key)
        let first = try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation(residentKey: "discouraged")))
        let again = PasskeyOptions.creation(exclude: [try #require(first["rawId"]?.stringValue)])
        await #expect { _ = try await client.create(CredentialCreationOptions(json: again)) } throws: {
            ($0 as? WebAuthnClientError)?.domError.name == .invalidState
        }
    }

    @Test("no key plugged in (this machine has no HID keys): NotAllowedError at once")
    func noKey() async throws {
        let client = WebAuthnClient(origin: PasskeyOptions.origin, authenticator: SecurityKeyAuthenticator(source: .system), gate: Self.gate)
        await #expect { _ = try await client.get(CredentialRequestOptions(json: PasskeyOptions.request())) } throws: { error in
            (error as? WebAuthnClientError) == .authenticator(.unavailable("no security key is plugged in"))
        }
    }

    @Test("a key with a PIN: libfido2's PIN protocol 1 with the PIN the person types; a wrong one costs a try and asks again")
    func pin() async throws {
        let key = try SoftwareSecurityKey(pin: "2468", alwaysTouched: true)
        let typed = LockedState<[Int?]>([])
        let authenticator = SecurityKeyAuthenticator(source: .software(key)) { triesLeft in
            typed.withLock { asked in
                asked.append(triesLeft)
                return asked.count == 1 ? "1357" : "2468"
            }
        }
        let client = WebAuthnClient(origin: PasskeyOptions.origin, authenticator: authenticator, gate: Self.gate)
        let registration = try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation(residentKey: "required",
                                                                                                              userVerification: "required")))
        #expect(typed.withLock { $0 } == [nil, 7], "asked, then asked again with the tries left after a wrong PIN")
        #expect(key.clientPIN?.retries == 8, "the right PIN resets the count")
        let verifier = RelyingPartyVerifier(relyingPartyID: "example.com", origins: ["https://login.example.com"])
        #expect(try verifier.verifyRegistration(registration, challenge: Data(repeating: 1, count: 32), requireUserVerification: true).userVerified)
    }

    @Test("a key with a PIN and a person who cancels the PIN dialog: NotAllowedError, nothing made")
    func pinCancelled() async throws {
        let key = try SoftwareSecurityKey(pin: "2468", alwaysTouched: true)
        let client = WebAuthnClient(origin: PasskeyOptions.origin, authenticator: SecurityKeyAuthenticator(source: .software(key)) { _ in nil },
                                    gate: Self.gate)
        await #expect { _ = try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation())) } throws: {
            ($0 as? WebAuthnClientError) == .authenticator(.pin("no PIN was given"))
        }
        #expect(try key.authenticator.credentials.isEmpty)
    }
}
