import DevProvider
import Foundation
import OpenIDConnect
import Testing

@Suite("ID token validation")
struct IDTokenValidatorTests {
    static let clientID = "client-1"
    static let nonce = "n-0S6_WzA2Mj"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A provider whose JWKS endpoint serves `signer`'s keys, and a validator for it.
    func setUp(_ signer: TestSigner = TestSigner()) async throws -> (TestProviderServer, IDTokenValidator) {
        let provider = try await TestProviderServer.start()
        provider.json("/jwks", signer.jwks)
        var validator = try IDTokenValidator(configuration: provider.configuration, clientID: Self.clientID)
        validator.now = { Self.now }
        return (provider, validator)
    }

    func claims(_ provider: TestProviderServer, _ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(provider.issuer), "sub": .string("248289761001"), "aud": .string(Self.clientID),
            "exp": .number(Self.now.timeIntervalSince1970 + 300), "iat": .number(Self.now.timeIntervalSince1970 - 10),
            "nonce": .string(Self.nonce), "email": .string("alice@example.com"),
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    func expectRejected(_ token: String, _ error: IDTokenError, by validator: IDTokenValidator,
                        accessToken: String? = nil, code: String? = nil) async {
        await #expect(throws: error) {
            try await validator.validate(token, nonce: Self.nonce, accessToken: accessToken, code: code)
        }
    }

    @Test("valid tokens are accepted", arguments: ["RS256", "PS256", "ES256"])
    func accepted(alg: String) async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        let token = try await validator.validate(signer.sign(claims(provider), alg: alg), nonce: Self.nonce)
        #expect(token.subject == "248289761001")
        #expect(token.claims["email"] == .string("alice@example.com"))
        #expect(token.audiences == [Self.clientID])
    }

    @Test("alg none and HMAC keyed with the public key are refused", arguments: ["none", "HS256"])
    func refusedAlgorithms(alg: String) async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        await expectRejected(signer.sign(claims(provider), alg: alg), .unsupportedAlgorithm(alg), by: validator)
    }

    @Test("a bad signature is refused")
    func badSignature() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        let genuine = signer.sign(claims(provider)).split(separator: ".")
        let forgedPayload = b64url(Data(JSONValue.object(claims(provider, ["sub": .string("admin")])).description.utf8))
        await expectRejected([genuine[0], Substring(forgedPayload), genuine[2]].joined(separator: "."), .invalidSignature, by: validator)
        let otherSigner = TestSigner()
        await expectRejected(otherSigner.sign(claims(provider)), .invalidSignature, by: validator)
    }

    @Test("a key whose type does not fit alg is refused (algorithm confusion)")
    func keyTypeMismatch() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        await expectRejected(signer.sign(claims(provider), alg: "ES256", kid: signer.rsaKID),
                             .keyAlgorithmMismatch(alg: "ES256", kid: signer.rsaKID), by: validator)
    }

    @Test("an unknown kid fetches the key set once more: rotation works, a bogus kid fails after one refetch")
    func rotation() async throws {
        let old = TestSigner(generation: 1)
        let (provider, validator) = try await setUp(old)
        _ = try await validator.validate(old.sign(claims(provider)), nonce: Self.nonce)
        #expect(provider.count("/jwks") == 1)
        _ = try await validator.validate(old.sign(claims(provider)), nonce: Self.nonce)
        #expect(provider.count("/jwks") == 1, "a known kid must not refetch")

        let new = TestSigner(generation: 2)
        provider.json("/jwks", new.jwks)
        _ = try await validator.validate(new.sign(claims(provider)), nonce: Self.nonce)
        #expect(provider.count("/jwks") == 2)

        await expectRejected(new.sign(claims(provider), kid: "nobody"), .unknownKey(kid: "nobody"), by: validator)
        #expect(provider.count("/jwks") == 3, "exactly one refetch for an unknown kid")
    }

    @Test("a key set that cannot be had is a typed error")
    func keySetUnavailable() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        provider.on("/jwks") { _ in .html("<h1>Internal Server Error</h1>", status: 500) }
        await #expect(throws: IDTokenError.self) { try await validator.validate(signer.sign(claims(provider)), nonce: Self.nonce) }
    }

    @Test("claim rules", arguments: [
        ("iss", JSONValue.string("https://evil.example"), "issuer"),
        ("aud", .string("someone-else"), "audience"),
        ("aud", .array([.string(clientID), .string("other")]), "audience"),
        ("azp", .string("other"), "audience"),
        ("exp", .number(now.timeIntervalSince1970 - 61), "expired"),
        ("iat", .number(now.timeIntervalSince1970 + 61), "future"),
        ("nonce", .string("replayed"), "nonce"),
        ("nonce", nil, "nonce"),
        ("sub", nil, "missing"),
        ("exp", .string("tomorrow"), "missing"),
    ] as [(String, JSONValue?, String)])
    func claimRules(name: String, value: JSONValue?, kind: String) async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        do {
            _ = try await validator.validate(signer.sign(claims(provider, [name: value])), nonce: Self.nonce)
            Issue.record("accepted a token with \(name) = \(value.map(\.description) ?? "absent")")
        } catch {
            let matches = switch (kind, error) {
            case ("issuer", .issuerMismatch), ("audience", .audienceMismatch), ("expired", .expired),
                 ("future", .issuedInFuture), ("nonce", .nonceMismatch), ("missing", .missingClaim): true
            default: false
            }
            #expect(matches, "\(name): \(error)")
        }
    }

    @Test("clock skew tolerates a token just expired, and several audiences with azp = client")
    func tolerated() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        let justExpired = claims(provider, ["exp": .number(Self.now.timeIntervalSince1970 - 30)])
        _ = try await validator.validate(signer.sign(justExpired), nonce: Self.nonce)
        let shared = claims(provider, ["aud": .array([.string(Self.clientID), .string("api")]), "azp": .string(Self.clientID)])
        _ = try await validator.validate(signer.sign(shared), nonce: Self.nonce)
    }

    @Test("at_hash and c_hash bind the front-channel access token and code")
    func hashes() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        let bound = claims(provider, ["at_hash": .string(halfSHA256("access-1")), "c_hash": .string(halfSHA256("code-1"))])
        _ = try await validator.validate(signer.sign(bound), nonce: Self.nonce, accessToken: "access-1", code: "code-1")
        await expectRejected(signer.sign(bound), .accessTokenHashMismatch, by: validator, accessToken: "access-2")
        await expectRejected(signer.sign(bound), .codeHashMismatch, by: validator, code: "code-2")
        await expectRejected(signer.sign(claims(provider)), .accessTokenHashMismatch, by: validator, accessToken: "access-1")
    }

    @Test("garbage is a typed error, never a crash", arguments: [
        "", "abc", "a.b", "a.b.c.d", "!!!.???.***", "eyJhbGciOiJSUzI1NiJ9", String(repeating: "A", count: 100_000) + ".x.y",
    ])
    func garbage(token: String) async throws {
        let (_, validator) = try await setUp()
        await #expect(throws: IDTokenError.self) { try await validator.validate(token, nonce: Self.nonce) }
    }
}
