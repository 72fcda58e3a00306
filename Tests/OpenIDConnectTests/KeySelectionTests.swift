import Foundation
import OpenIDConnect
import Testing

/// Which key of the provider's JWKS verifies an ID token (OpenID Connect Core §10.1, RFC 7517
/// §4.2–4.4, §5): the set is read key by key, what is not understood is skipped, and only a key
/// that may verify the token's algorithm is chosen.
@Suite("ID token key selection")
struct KeySelectionTests {
    let base = IDTokenValidatorTests()

    /// A validator whose provider publishes `keys`, and a token signer.
    func setUp(_ keys: (TestSigner) -> [JSONValue]) async throws -> (TestProviderServer, IDTokenValidator, TestSigner) {
        let signer = TestSigner()
        let (provider, validator) = try await base.setUp(signer)
        provider.json("/jwks", TestSigner.set(keys(signer)))
        return (provider, validator, signer)
    }

    /// An encryption key, keys of unknown types and curves, and keys with broken members: none may
    /// verify anything, and none may make the set unreadable.
    static func keysToSkip(_ signer: TestSigner) -> [JSONValue] {
        [
            signer.rsaJWK(["kid": .string("enc-1"), "use": .string("enc"), "alg": .string("RSA-OAEP-256")]),
            signer.rsaJWK(["kid": .string("wrap-1"), "use": nil, "key_ops": .array([.string("wrapKey"), .string("encrypt")])]),
            .object(["kty": .string("oct"), "kid": .string("shared"), "k": .string("GawgguFyGrWKav7AX4VKUg")]),
            .object(["kty": .string("AKP"), "kid": .string("pq-1"), "alg": .string("ML-DSA-44"), "pub": .string("AAAA")]),
            signer.ecJWK(["kid": .string("k1"), "crv": .string("secp256k1")]),
            signer.ecJWK(["kid": .string("broken"), "use": .number(1)]),
            signer.rsaJWK(["kid": .string("no-modulus"), "n": nil]),
            .string("not a key"),
        ]
    }

    @Test("keys it does not understand are skipped, not the set: a token without kid finds the one signing key among them (RFC 7517 §5)")
    func skipsWhatItCannotRead() async throws {
        let (provider, validator, signer) = try await setUp { [$0.rsaJWK(["kid": nil])] + Self.keysToSkip($0) }
        let token = try await validator.validate(signer.sign(base.claims(provider), withoutKeyID: true), nonce: IDTokenValidatorTests.nonce)
        #expect(token.subject == "248289761001")
    }

    @Test("one RSA signing key and one RSA encryption key, tokens without kid: the signing key is chosen")
    func signingBesideEncryptionKey() async throws {
        let (provider, validator, signer) = try await setUp { signer in
            [signer.rsaJWK(["kid": nil]), TestSigner().rsaJWK(["kid": nil, "use": .string("enc")])]
        }
        _ = try await validator.validate(signer.sign(base.claims(provider), withoutKeyID: true), nonce: IDTokenValidatorTests.nonce)
    }

    @Test("a key with the token's kid that may not verify is refused, never used: use enc, key_ops without verify, another alg",
          arguments: [
            ["use": .string("enc")], ["key_ops": .array([.string("encrypt")])], ["alg": .string("RS384")],
          ] as [[String: JSONValue?]])
    func unfitKeyWithTheKid(members: [String: JSONValue?]) async throws {
        let (provider, validator, signer) = try await setUp { [$0.rsaJWK(members)] }
        await base.expectRejected(signer.sign(base.claims(provider)), .keyAlgorithmMismatch(alg: "RS256", kid: signer.rsaKID), by: validator)
    }

    @Test("use sig, key_ops with verify and the same alg are all fine")
    func fittingMembers() async throws {
        let (provider, validator, signer) = try await setUp {
            [$0.rsaJWK(["key_ops": .array([.string("verify")]), "alg": .string("RS256")]), $0.ecJWK(["use": nil, "alg": .string("ES256")])]
        }
        _ = try await validator.validate(signer.sign(base.claims(provider)), nonce: IDTokenValidatorTests.nonce)
        _ = try await validator.validate(signer.sign(base.claims(provider), alg: "ES256"), nonce: IDTokenValidatorTests.nonce)
    }

    @Test("two keys share a kid but not a type: each token gets the one that fits its alg")
    func sharedKeyID() async throws {
        let (provider, validator, signer) = try await setUp { [$0.rsaJWK(["kid": .string("both")]), $0.ecJWK(["kid": .string("both")])] }
        _ = try await validator.validate(signer.sign(base.claims(provider), kid: "both"), nonce: IDTokenValidatorTests.nonce)
        _ = try await validator.validate(signer.sign(base.claims(provider), alg: "ES256", kid: "both"), nonce: IDTokenValidatorTests.nonce)
        #expect(provider.count("/jwks") == 1)
    }

    @Test("without a kid, several keys that may verify the alg are a typed error that names the ambiguity, with no refetch")
    func ambiguousWithoutKeyID() async throws {
        let (provider, validator, signer) = try await setUp { signer in
            [signer.rsaJWK(["kid": .string("a")]), TestSigner().rsaJWK(["kid": .string("b")]), signer.ecJWK()]
        }
        let token = signer.sign(base.claims(provider), withoutKeyID: true)
        await base.expectRejected(token, .ambiguousKey(alg: "RS256", kid: nil, candidates: 2), by: validator)
        #expect("\(IDTokenError.ambiguousKey(alg: "RS256", kid: nil, candidates: 2))".contains("2 keys"))
        // The EC key is alone in fitting ES256: no ambiguity there.
        _ = try await validator.validate(signer.sign(base.claims(provider), alg: "ES256", withoutKeyID: true), nonce: IDTokenValidatorTests.nonce)
        #expect(provider.count("/jwks") == 1)
    }

    @Test("two keys that fit share the token's kid: ambiguous, not the first")
    func ambiguousKeyID() async throws {
        let (provider, validator, signer) = try await setUp { [TestSigner().rsaJWK(["kid": .string("dup")]), $0.rsaJWK(["kid": .string("dup")])] }
        await base.expectRejected(signer.sign(base.claims(provider), kid: "dup"), .ambiguousKey(alg: "RS256", kid: "dup", candidates: 2),
                                  by: validator)
    }

    @Test("a set whose every key is skipped is read, and the token's key is unknown (after one refetch), not the set unreadable")
    func nothingUsable() async throws {
        let (provider, validator, signer) = try await setUp { Self.keysToSkip($0) }
        await base.expectRejected(signer.sign(base.claims(provider)), .unknownKey(kid: signer.rsaKID), by: validator)
        #expect(provider.count("/jwks") == 1, "the first fetch is the token's own")
    }
}
