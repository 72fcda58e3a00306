import Foundation
internal import JWTKit
import OpenIDConnect

/// How ID tokens are signed, and the key set that verifies them, with the faults that change
/// either: keys a client must pass over, no `kid`, HS256 with the client secret, no signature,
/// another key under the published `kid`.
struct IDTokenSigner: Sendable {
    /// The `kid` of the signing key.
    static let keyID = "dev-es256"

    private let context: ProviderContext
    private let clients: ClientRegistry
    private let keys: JWTKeyCollection
    /// A key the JWKS does not publish, for ``ProviderFault/badIDTokenSignature``.
    private let rogueKeys: JWTKeyCollection
    private let publicJWK: JSONValue

    /// A signer with `signingKey` (and a rogue key of its own), which reads the faults from
    /// `context` and an HS256 client's secret from `clients`.
    init(signingKey: ES256PrivateKey, context: ProviderContext, clients: ClientRegistry) async {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: signingKey, kid: JWKIdentifier(string: Self.keyID))
        let rogueKeys = JWTKeyCollection()
        await rogueKeys.add(ecdsa: ES256PrivateKey(), kid: JWKIdentifier(string: Self.keyID))
        (self.keys, self.rogueKeys) = (keys, rogueKeys)
        let parameters = signingKey.publicKey.parameters!
        publicJWK = .object(["kty": .string("EC"), "crv": .string("P-256"), "kid": .string(Self.keyID), "use": .string("sig"),
                             "alg": .string("ES256"), "x": .string(parameters.x), "y": .string(parameters.y)])
        self.context = context
        self.clients = clients
    }

    /// The JWKS document: the signing key, and with ``ProviderFault/extraJWKSKeys`` the keys a client must skip.
    var keySetDocument: JSONValue {
        .object(["keys": .array([publicJWK] + (context.has(.extraJWKSKeys) ? Self.extraJWKSKeys : []))])
    }

    /// Keys no ID token is signed with, each one a client must neither choose nor choke on
    /// (example public values; nothing is ever encrypted to them).
    static let extraJWKSKeys: [JSONValue] = {
        let ecX = JSONValue.string("MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4"), ecY = JSONValue.string("4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM")
        let modulus = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMst"
            + "n64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91C"
            + "bOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"
        return [
            .object(["kty": .string("RSA"), "kid": .string(keyID), "use": .string("enc"), "alg": .string("RSA-OAEP-256"),
                     "n": .string(modulus), "e": .string("AQAB")]),
            .object(["kty": .string("EC"), "crv": .string("P-256"), "use": .string("enc"), "alg": .string("ECDH-ES"), "x": ecX, "y": ecY]),
            .object(["kty": .string("EC"), "crv": .string("P-256"), "key_ops": .array([.string("wrapKey")]), "x": ecX, "y": ecY]),
            .object(["kty": .string("oct"), "kid": .string("shared"), "k": .string("GawgguFyGrWKav7AX4VKUg")]),
            .object(["kty": .string("EC"), "crv": .string("secp256k1"), "use": .string("sig"), "x": ecX, "y": ecY]),
        ]
    }()

    /// `claims` as the ID token of a token response to `clientID`, signed as the faults say.
    func sign(_ claims: [String: JSONValue], for clientID: String) async -> String? {
        if context.has(.unsignedIDTokens) { return Self.compact(header: ["alg": "none", "typ": "JWT"], claims) + "." }
        if context.has(.hmacIDTokens) {
            let input = Self.compact(header: ["alg": "HS256", "typ": "JWT"], claims)
            let secret = clients.client(clientID)?.clientSecret ?? ""
            return input + "." + Base64URL.encode(ClientSecretHMAC.code(for: Data(input.utf8), alg: .hs256, secret: secret))
        }
        let signer = context.has(.badIDTokenSignature) ? rogueKeys : keys
        return try? await signer.sign(JWTClaimSet(claims: claims), kid: context.has(.idTokenWithoutKeyID) ? nil : JWKIdentifier(string: Self.keyID))
    }

    /// A JWS header and payload, base64url and joined: the signing input.
    private static func compact(header: [String: String], _ claims: [String: JSONValue]) -> String {
        Base64URL.encode(Data(JSONValue.object(header.mapValues { .string($0) }).description.utf8)) + "."
            + Base64URL.encode(Data(JSONValue.object(claims).description.utf8))
    }
}
