import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import Testing

/// ID tokens signed with the client secret (OpenID Connect Core §10.1) and unsigned ones
/// (§3.1.3.7): which client accepts them, where, and what a token may not choose.
@Suite("ID token algorithms: HMAC with the client secret, unsigned opt-in")
struct IDTokenAlgorithmTests {
    let base = IDTokenValidatorTests()
    /// 64 bytes: enough for HS512.
    static let secret = String(repeating: "s3cret-0123456789", count: 4)

    /// A validator of `provider` for a client with `secret` that registered `signing`.
    func validator(_ provider: TestProviderServer, secret: String? = Self.secret, signing: IDTokenSigning? = nil,
                   configuration: ProviderConfiguration? = nil) throws -> IDTokenValidator {
        var validator = try IDTokenValidator(configuration: configuration ?? provider.configuration, clientID: IDTokenValidatorTests.clientID,
                                             clientSecret: secret, signing: signing, http: URLSessionHTTPClient())
        validator.now = { IDTokenValidatorTests.now }
        return validator
    }

    @Test("a client with a secret accepts HS256, HS384 and HS512 keyed with the secret's octets", arguments: ["HS256", "HS384", "HS512"])
    func hmacAccepted(alg: String) async throws {
        let (provider, _) = try await base.setUp()
        let signer = TestSigner()
        let token = signer.sign(base.claims(provider, ["at_hash": .string("x")]), alg: alg, secret: Self.secret)
        _ = try await validator(provider).validate(token, nonce: IDTokenValidatorTests.nonce)
        _ = try await validator(provider, signing: IDTokenSigning(rawValue: alg)).validate(token, nonce: IDTokenValidatorTests.nonce)
        #expect(provider.count("/jwks") == 0, "an HMAC token needs no key set")
    }

    @Test("HMAC is refused for a public client, and keyed with the provider's public key or another secret it does not verify")
    func hmacRefused() async throws {
        let (provider, _) = try await base.setUp()
        let signer = TestSigner()
        let token = signer.sign(base.claims(provider), alg: "HS256", secret: Self.secret)
        await base.expectRejected(token, .unsupportedAlgorithm("HS256"), by: try validator(provider, secret: nil))
        await base.expectRejected(signer.sign(base.claims(provider), alg: "HS256"), .invalidSignature, by: try validator(provider))
        await base.expectRejected(signer.sign(base.claims(provider), alg: "HS256", secret: Self.secret + "!"), .invalidSignature,
                                  by: try validator(provider))
    }

    @Test("a token never chooses: a client registered for RS256 refuses HS256 (and ES256), one registered for HS256 refuses RS256")
    func registeredAlgorithmOnly() async throws {
        let (provider, _) = try await base.setUp()
        let signer = TestSigner()
        let rs256 = try validator(provider, signing: .algorithm(.rs256))
        await base.expectRejected(signer.sign(base.claims(provider), alg: "HS256", secret: Self.secret),
                                  .algorithmNotRegistered(alg: "HS256", registered: "RS256"), by: rs256)
        await base.expectRejected(signer.sign(base.claims(provider), alg: "ES256"), .algorithmNotRegistered(alg: "ES256", registered: "RS256"), by: rs256)
        await base.expectRejected(signer.sign(base.claims(provider)), .algorithmNotRegistered(alg: "RS256", registered: "HS256"),
                                  by: try validator(provider, signing: .algorithm(.hs256)))
    }

    @Test("a secret shorter than the hash is a typed error, never an assertion", arguments: [("HS256", 31), ("HS384", 47), ("HS512", 63), ("HS256", 0)])
    func shortSecret(alg: String, length: Int) async throws {
        let (provider, _) = try await base.setUp()
        let short = String(repeating: "x", count: length)
        let token = TestSigner().sign(base.claims(provider), alg: alg, secret: short)
        let needed = ["HS256": 32, "HS384": 48, "HS512": 64][alg]!
        await base.expectRejected(token, .clientSecretTooShort(alg: alg, bytes: length, needed: needed), by: try validator(provider, secret: short))
    }

    /// A configuration of `provider` whose token endpoint is https (nothing is fetched from it).
    func https(_ provider: TestProviderServer) -> ProviderConfiguration {
        var configuration = provider.configuration
        configuration.tokenEndpoint = URL(string: "https://id.example.com/token")!
        return configuration
    }

    @Test("an unsigned token is accepted only by a client registered for none, from the code flow's token endpoint over https")
    func unsignedOptIn() async throws {
        let (provider, defaultValidator) = try await base.setUp()
        let unsigned = TestSigner().sign(base.claims(provider), alg: "none")
        let optedIn = try validator(provider, secret: nil, signing: .unsigned, configuration: https(provider))
        let token = try await optedIn.validate(unsigned, nonce: IDTokenValidatorTests.nonce, source: .codeFlowTokenEndpoint)
        #expect(token.subject == "248289761001")

        for source in [IDTokenSource.codeFlowTokenEndpoint, .other] {
            await #expect(throws: IDTokenError.unsupportedAlgorithm("none"), "refused by default") {
                try await defaultValidator.validate(unsigned, nonce: IDTokenValidatorTests.nonce, source: source)
            }
        }
        await #expect(throws: IDTokenError.unsignedRefused(reason: "from the front channel or another grant")) {
            try await optedIn.validate(unsigned, nonce: IDTokenValidatorTests.nonce, source: .other)
        }
        let overHTTP = try validator(provider, secret: nil, signing: .unsigned)
        await #expect(throws: IDTokenError.unsignedRefused(reason: "over plain http")) {
            try await overHTTP.validate(unsigned, nonce: IDTokenValidatorTests.nonce, source: .codeFlowTokenEndpoint)
        }
        let withSignature = unsigned + "c2lnbmF0dXJl"
        await #expect(throws: IDTokenError.malformed("an unsigned token has a signature")) {
            try await optedIn.validate(withSignature, nonce: IDTokenValidatorTests.nonce, source: .codeFlowTokenEndpoint)
        }
        await #expect(throws: IDTokenError.algorithmNotRegistered(alg: "RS256", registered: "none")) {
            try await optedIn.validate(TestSigner().sign(base.claims(provider)), nonce: IDTokenValidatorTests.nonce, source: .codeFlowTokenEndpoint)
        }
    }

    @Test("the registration values read and write as registered")
    func registrationNames() {
        #expect(IDTokenSigning(rawValue: "none") == .unsigned && IDTokenSigning(rawValue: "HS512") == .algorithm(.hs512))
        #expect(IDTokenSigning(rawValue: "hs256") == nil && IDTokenSigning(rawValue: "RSA-OAEP-256") == nil)
        #expect(IDTokenSigning.algorithm(.eddsa).rawValue == "EdDSA")
    }
}
