import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import Synchronization
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
        var validator = try IDTokenValidator(configuration: provider.configuration, clientID: Self.clientID, http: URLSessionHTTPClient())
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

    @Test("a validated token's claims are read by name in our own type, and stored as the JSON object the token carried")
    func namedClaims() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        let token = try await validator.validate(signer.sign(claims(provider, [
            "auth_time": .number(Self.now.timeIntervalSince1970 - 60), "acr": .string("urn:mace:incommon:iap:silver"),
            "amr": .array([.string("pwd"), .string("otp")]), "azp": .string(Self.clientID), "sid": .string("08a5019c"),
            "name": .string("Alice"), "email_verified": .bool(true), "x-tenant": .string("blue"),
        ])), nonce: Self.nonce)
        let claims: IDTokenClaims = token.claims
        #expect(claims.issuer == provider.issuer && claims.subject == "248289761001" && claims.audiences == [Self.clientID])
        #expect(claims.expiresAt == Self.now.addingTimeInterval(300) && claims.issuedAt == Self.now.addingTimeInterval(-10))
        #expect(claims.authenticatedAt == Self.now.addingTimeInterval(-60))
        #expect(claims.nonce == Self.nonce)
        #expect(claims.authenticationContextClass == "urn:mace:incommon:iap:silver")
        #expect(claims.authenticationMethods == ["pwd", "otp"])
        #expect(claims.authorizedParty == Self.clientID && claims.sessionID == "08a5019c")
        #expect(claims.email == "alice@example.com" && claims.emailVerified == true && claims.name == "Alice")
        #expect(claims.preferredUsername == nil)
        #expect(claims["x-tenant"] == .string("blue") && claims.all.count == 15)
        let stored = try JSONSerialization.jsonObject(with: JSONEncoder().encode(token)) as? [String: Any]
        #expect((stored?["claims"] as? [String: Any])?["x-tenant"] as? String == "blue", "claims are stored as a plain JSON object")
        #expect(try JSONDecoder().decode(IDToken.self, from: JSONEncoder().encode(token)) == token)
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
        let (provider, initial) = try await setUp(old)
        var validator = initial
        _ = try await validator.validate(old.sign(claims(provider)), nonce: Self.nonce)
        #expect(provider.count("/jwks") == 1)
        _ = try await validator.validate(old.sign(claims(provider)), nonce: Self.nonce)
        #expect(provider.count("/jwks") == 1, "a known kid must not refetch")

        let new = TestSigner(generation: 2)
        provider.json("/jwks", new.jwks)
        validator.now = { Self.now + 61 }
        _ = try await validator.validate(new.sign(claims(provider)), nonce: Self.nonce)
        #expect(provider.count("/jwks") == 2)

        validator.now = { Self.now + 122 }
        await expectRejected(new.sign(claims(provider), kid: "nobody"), .unknownKey(kid: "nobody"), by: validator)
        #expect(provider.count("/jwks") == 3, "exactly one refetch for an unknown kid")
    }

    @Test("a prefetched key set serves the token with no fetch of its own, and keys rotated after it are fetched once more")
    func prefetched() async throws {
        let old = TestSigner(generation: 1)
        let (provider, validator) = try await setUp(old)
        await validator.prefetchKeys()
        await validator.prefetchKeys()
        _ = try await validator.validate(old.sign(claims(provider)), nonce: Self.nonce)
        #expect(provider.count("/jwks") == 1, "one fetch for two prefetches and a token")
        // A person may take minutes on the page: a prefetched set does not stop a rotated key.
        let new = TestSigner(generation: 2)
        provider.json("/jwks", new.jwks)
        _ = try await validator.validate(new.sign(claims(provider)), nonce: Self.nonce)
        #expect(provider.count("/jwks") == 2)
    }

    @Test("a prefetch that failed is forgotten: the token's validation fetches the key set itself")
    func failedPrefetch() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        let answered = Mutex(0)
        provider.on("/jwks") { _ in
            answered.withLock { $0 += 1; return $0 } == 1
                ? LocalHTTPResponse(status: 503, body: "busy")
                : LocalHTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: signer.jwks.description)
        }
        await validator.prefetchKeys()
        _ = try await validator.validate(signer.sign(claims(provider)), nonce: Self.nonce)
        #expect(provider.count("/jwks") == 2)
    }

    @Test("unknown kids refetch the key set at most once a minute")
    func refetchThrottled() async throws {
        let old = TestSigner(generation: 1)
        let (provider, initial) = try await setUp(old)
        var validator = initial
        _ = try await validator.validate(old.sign(claims(provider)), nonce: Self.nonce)
        for kid in ["made-up-1", "made-up-2", "made-up-3"] {
            await expectRejected(old.sign(claims(provider), kid: kid), .unknownKey(kid: kid), by: validator)
        }
        #expect(provider.count("/jwks") == 1, "a refetch within a minute of the last fetch")

        let new = TestSigner(generation: 2)
        provider.json("/jwks", new.jwks)
        validator.now = { Self.now + 59 }
        await expectRejected(new.sign(claims(provider)), .unknownKey(kid: new.rsaKID), by: validator)
        #expect(provider.count("/jwks") == 1)
        validator.now = { Self.now + 60 }
        _ = try await validator.validate(new.sign(claims(provider)), nonce: Self.nonce)
        #expect(provider.count("/jwks") == 2, "a rotated key is picked up once the minute is over")
        await expectRejected(new.sign(claims(provider), kid: "made-up-4"), .unknownKey(kid: "made-up-4"), by: validator)
        #expect(provider.count("/jwks") == 2)
    }

    @Test("max_age: auth_time is required, and the login may be at most max_age (plus the clock skew) ago")
    func maxAge() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        let requirement = AuthTimeRequirement(maxAge: .seconds(300))
        let login = { (secondsAgo: Double) in self.claims(provider, ["auth_time": .number(Self.now.timeIntervalSince1970 - secondsAgo)]) }
        await #expect(throws: IDTokenError.missingClaim("auth_time")) {
            try await validator.validate(signer.sign(claims(provider)), nonce: Self.nonce, authTime: requirement)
        }
        let stale = Int(Self.now.timeIntervalSince1970) - 361
        await #expect(throws: IDTokenError.authenticationTooOld(authTime: stale, maxAge: 300, now: Int(Self.now.timeIntervalSince1970))) {
            try await validator.validate(signer.sign(login(361)), nonce: Self.nonce, authTime: requirement)
        }
        _ = try await validator.validate(signer.sign(login(360)), nonce: Self.nonce, authTime: requirement)
        _ = try await validator.validate(signer.sign(login(10)), nonce: Self.nonce, authTime: requirement)
        _ = try await validator.validate(signer.sign(claims(provider)), nonce: Self.nonce)
    }

    @Test("prompt=login: auth_time is required and may not be before the request (minus the clock skew)")
    func freshLogin() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        let requestedAt = Self.now - 20
        let requirement = AuthTimeRequirement(notBefore: requestedAt)
        let login = { (at: Date) in self.claims(provider, ["auth_time": .number(at.timeIntervalSince1970)]) }
        await #expect(throws: IDTokenError.missingClaim("auth_time")) {
            try await validator.validate(signer.sign(claims(provider)), nonce: Self.nonce, authTime: requirement)
        }
        let earlier = requestedAt - 61
        await #expect(throws: IDTokenError.authenticationBeforeRequest(authTime: Int(earlier.timeIntervalSince1970),
                                                                       requestedAt: Int(requestedAt.timeIntervalSince1970))) {
            try await validator.validate(signer.sign(login(earlier)), nonce: Self.nonce, authTime: requirement)
        }
        _ = try await validator.validate(signer.sign(login(requestedAt - 60)), nonce: Self.nonce, authTime: requirement)
        _ = try await validator.validate(signer.sign(login(requestedAt + 5)), nonce: Self.nonce, authTime: requirement)
    }

    @Test("hybrid flow: the token endpoint's ID token must have the front channel's iss and sub")
    func hybridSameSubject() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        let frontChannel = try await validator.validate(signer.sign(claims(provider, ["c_hash": .string(halfSHA256("code-1"))])),
                                                        nonce: Self.nonce, code: "code-1")
        await #expect(throws: IDTokenError.hybridMismatch(claim: "sub", frontChannel: "248289761001", tokenEndpoint: "mallory")) {
            try await validator.validate(signer.sign(claims(provider, ["sub": .string("mallory")])), nonce: Self.nonce,
                                         frontChannel: frontChannel)
        }
        let same = try await validator.validate(signer.sign(claims(provider)), nonce: Self.nonce, frontChannel: frontChannel)
        #expect(same.subject == frontChannel.subject)
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
    }

    @Test("a missing at_hash (implicit id_token token) or c_hash (hybrid code id_token) is refused as missing, a different one as different")
    func missingHashes() async throws {
        let signer = TestSigner()
        let (provider, validator) = try await setUp(signer)
        await expectRejected(signer.sign(claims(provider)), .missingAccessTokenHash, by: validator, accessToken: "access-1")
        await expectRejected(signer.sign(claims(provider)), .missingCodeHash, by: validator, code: "code-1")
        #expect(IDTokenError.missingAccessTokenHash.description.contains("missing"))
        #expect(IDTokenError.missingCodeHash.description.contains("missing"))
        #expect(IDTokenError.accessTokenHashMismatch.description.contains("different"))
        #expect(IDTokenError.codeHashMismatch.description.contains("different"))
    }

    @Test("garbage is a typed error, never a crash", arguments: [
        "", "abc", "a.b", "a.b.c.d", "!!!.???.***", "eyJhbGciOiJSUzI1NiJ9", String(repeating: "A", count: 100_000) + ".x.y",
    ])
    func garbage(token: String) async throws {
        let (_, validator) = try await setUp()
        await #expect(throws: IDTokenError.self) { try await validator.validate(token, nonce: Self.nonce) }
    }
}
