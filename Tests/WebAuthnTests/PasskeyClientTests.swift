import Foundation
import OpenIDConnect
import SecretGate
import Testing
import TestSupport
@testable import WebAuthn
import WebAuthnTestSupport

/// The browser's part of WebAuthn with the virtual authenticator: registration and sign-in
/// verified by a relying party (ours, and python-fido2's), and each error the spec gives a page.
@Suite("Passkey protocol: the client and the virtual authenticator")
struct PasskeyClientTests {
    static let scripted = SecretGate(pageHosts: ["login.example.com"], drivenByLoginScript: true)

    static func client(_ authenticator: (any PasskeyAuthenticator)?, origin: WebAuthnOrigin = PasskeyOptions.origin, gate: SecretGate = scripted) -> WebAuthnClient {
        WebAuthnClient(origin: origin, authenticator: authenticator, gate: gate)
    }

    @Test("a credential registered, then a sign-in with it, both verified by the relying party", arguments: COSEAlgorithm.allCases)
    func registerThenSignIn(algorithm: COSEAlgorithm) async throws {
        let authenticator = try VirtualAuthenticator()
        let client = Self.client(authenticator)
        let registration = try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation(algorithms: [-257, algorithm.rawValue])))
        #expect(registration["response"]?["publicKeyAlgorithm"] == .number(Double(algorithm.rawValue)))
        #expect(registration["clientExtensionResults"]?["credProps"]?["rk"] == .bool(true))
        let verifier = RelyingPartyVerifier(relyingPartyID: "example.com", origins: ["https://login.example.com"])
        var credential = try verifier.verifyRegistration(registration, challenge: Data(repeating: 1, count: 32), requireUserVerification: true)
        #expect(credential.publicKey.algorithm == algorithm)
        for expectedCount in UInt32(1)...2 {
            let assertion = try await client.get(CredentialRequestOptions(json: PasskeyOptions.request()))
            let verified = try verifier.verifyAssertion(assertion, challenge: Data(repeating: 2, count: 32), credential: credential,
                                                        requireUserVerification: true)
            #expect(verified.signCount == expectedCount)
            #expect(verified.userHandle == Data([1, 2, 3]), "a discoverable credential returns its user handle")
            credential.signCount = verified.signCount
        }
    }

    @Test("python-fido2's relying party accepts the registration and the assertion", arguments: COSEAlgorithm.allCases)
    func independentRelyingParty(algorithm: COSEAlgorithm) async throws {
        let client = Self.client(try VirtualAuthenticator(settings: .init(algorithm: algorithm)))
        let registration = try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation(algorithms: [-7, -8])))
        let assertion = try await client.get(CredentialRequestOptions(json: PasskeyOptions.request(allow: [registration["rawId"]!.stringValue!])))
        let input: JSONValue = .object([
            "rp_id": .string("example.com"), "origin": .string("https://login.example.com"),
            "registration_challenge": .string(Base64URL.encode(Data(repeating: 1, count: 32))), "registration": registration,
            "assertion_challenge": .string(Base64URL.encode(Data(repeating: 2, count: 32))), "assertion": assertion,
        ])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fido2-\(UUID().uuidString).json")
        try Data(input.description.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/verify_with_python_fido2.py")
        let python = try ChildProcess("/usr/bin/python3", [script.path, file.path], environment: ["PATH": "/usr/bin:/bin"], stdout: .pipe, stderr: .pipe)
        let output = String(decoding: await python.outputToEnd(), as: UTF8.self)
        #expect(await python.exitStatus() == 0, "\(output)")
        #expect(output == "verified \(algorithm == .es256 ? "ES256" : "EdDSA") 1\n")
    }

    @Test("a credential the page excludes: InvalidStateError, and no second one is made")
    func excluded() async throws {
        let authenticator = try VirtualAuthenticator()
        let client = Self.client(authenticator)
        let first = try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation(residentKey: "discouraged")))
        await #expect { _ = try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation(exclude: [first["rawId"]!.stringValue!]))) }
            throws: { ($0 as? WebAuthnClientError)?.domError.name == .invalidState }
        #expect(try authenticator.credentials.count == 1)
    }

    @Test("the page's errors", arguments: [
        (PasskeyOptions.creation(algorithms: [-257, -37]), WebAuthnDOMError.Name.notSupported),     // RS256 and PS256 only
        (PasskeyOptions.creation(rpID: "bank.example"), .security),
        (PasskeyOptions.creation(userID: ""), .type),
        (PasskeyOptions.creation(userID: Base64URL.encode(Data(count: 65))), .type),
        (.object(["rp": .object([:]), "user": .object(["id": .string("AQ")]), "pubKeyCredParams": .array([])]), .type),  // no challenge
    ])
    func creationErrors(options: JSONValue, name: WebAuthnDOMError.Name) async throws {
        let client = Self.client(try VirtualAuthenticator())
        await #expect { _ = try await client.create(try CredentialCreationOptions(json: options)) } throws: { error in
            (error as? WebAuthnClientError)?.domError.name == name || (error as? WebAuthnDOMError)?.name == name
        }
    }

    @Test("no credential for the relying party, no authenticator, or no presence: NotAllowedError, which tells the page nothing more")
    func notAllowed() async throws {
        await #expect { _ = try await Self.client(try VirtualAuthenticator()).get(CredentialRequestOptions(json: PasskeyOptions.request())) }
            throws: { ($0 as? WebAuthnClientError) == .authenticator(.noCredentials) }
        await #expect { _ = try await Self.client(nil).get(CredentialRequestOptions(json: PasskeyOptions.request())) }
            throws: { ($0 as? WebAuthnClientError) == .noAuthenticator }
        let absent = Self.client(try VirtualAuthenticator(settings: .init(userPresence: false)))
        await #expect { _ = try await absent.create(CredentialCreationOptions(json: PasskeyOptions.creation())) }
            throws: { ($0 as? WebAuthnClientError)?.domError.name == .notAllowed }
        let unverifying = Self.client(try VirtualAuthenticator(settings: .init(userVerification: false)))
        await #expect { _ = try await unverifying.create(CredentialCreationOptions(json: PasskeyOptions.creation(userVerification: "required"))) }
            throws: { ($0 as? WebAuthnClientError)?.domError.name == .constraint }
    }

    @Test("the gate: the virtual authenticator needs a login script and one of its hosts; a security key needs neither")
    func gate() async throws {
        let options = try CredentialCreationOptions(json: PasskeyOptions.creation())
        let person = SecretGate(pageHosts: ["login.example.com"])
        await #expect { _ = try await Self.client(try VirtualAuthenticator(), gate: person).create(options) } throws: { error in
            guard case .refused(let refusal) = error as? WebAuthnClientError else { return false }
            return refusal.reason == .noLoginScript && (error as? WebAuthnClientError)?.domError.name == .notAllowed
        }
        let otherHost = SecretGate(pageHosts: ["id.example.com"], drivenByLoginScript: true)
        await #expect { _ = try await Self.client(try VirtualAuthenticator(), gate: otherHost).create(options) } throws: { error in
            guard case .refused(let refusal) = error as? WebAuthnClientError, case .hostNotAllowed = refusal.reason else { return false }
            return true
        }
        #expect(throws: Never.self) {
            try person.check(.passkeySignature(relyingParty: "example.com", authenticator: .securityKey),
                             to: .site(scheme: "https", host: "login.example.com", port: nil))
        }
        #expect { try person.check(.passkeySignature(relyingParty: "example.com", authenticator: .securityKey),
                                   to: .site(scheme: "http", host: "login.example.com", port: nil)) }
            throws: { ($0 as? SecretRefusal)?.reason == .notPrivate }
        #expect { try Self.scripted.check(.passkeySignature(relyingParty: "bank.example", authenticator: .virtual),
                                          to: .site(scheme: "https", host: "login.example.com", port: nil)) }
            throws: { ($0 as? SecretRefusal)?.reason == .otherRelyingParty }
    }

    @Test("an evil origin gets signatures for itself only: its clientDataJSON names it, and the provider refuses them")
    func evilOrigin() async throws {
        let authenticator = try VirtualAuthenticator()
        let provider = Self.client(authenticator)
        let registration = try await provider.create(CredentialCreationOptions(json: PasskeyOptions.creation()))
        let evilOrigin = try #require(WebAuthnOrigin(url: "https://evil.example/"))
        let evil = Self.client(authenticator, origin: evilOrigin, gate: SecretGate(pageHosts: ["evil.example"], drivenByLoginScript: true))
        await #expect { _ = try await evil.get(CredentialRequestOptions(json: PasskeyOptions.request(rpID: "example.com"))) }
            throws: { ($0 as? WebAuthnClientError)?.domError.name == .security }
        await #expect { _ = try await evil.get(CredentialRequestOptions(json: PasskeyOptions.request(rpID: nil))) }
            throws: { ($0 as? WebAuthnClientError) == .authenticator(.noCredentials) }
        _ = registration
    }

    @Test("a non-discoverable credential answers only when the page names it, without a user handle; sign_count zero stays zero")
    func nonDiscoverable() async throws {
        let client = Self.client(try VirtualAuthenticator(settings: .init(discoverable: false, signCount: .zero)))
        let made = try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation(residentKey: "preferred")))
        #expect(made["clientExtensionResults"]?["credProps"]?["rk"] == .bool(false))
        await #expect { _ = try await client.get(CredentialRequestOptions(json: PasskeyOptions.request())) }
            throws: { ($0 as? WebAuthnClientError) == .authenticator(.noCredentials) }
        let assertion = try await client.get(CredentialRequestOptions(json: PasskeyOptions.request(allow: [made["rawId"]!.stringValue!])))
        #expect(assertion["response"]?["userHandle"] == .null)
        let data = try AuthenticatorData(decoding: try #require(Base64URL.decode(assertion["response"]!["authenticatorData"]!.stringValue!)))
        #expect(data.signCount == 0)
        await #expect { _ = try await client.create(CredentialCreationOptions(json: PasskeyOptions.creation(residentKey: "required"))) }
            throws: { ($0 as? WebAuthnClientError)?.domError.name == .constraint }
    }

    @Test("a request's timeout is clamped to 1 s ... 10 min; none gives 5 min", arguments: [
        (nil, Duration.seconds(300)), (0, .seconds(1)), (-5, .seconds(1)), (60_000, .seconds(60)), (86_400_000, .seconds(600)),
    ] as [(Int?, Duration)])
    func timeouts(milliseconds: Int?, expected: Duration) {
        #expect(WebAuthnClient.timeout(milliseconds: milliseconds) == expected)
    }
}
