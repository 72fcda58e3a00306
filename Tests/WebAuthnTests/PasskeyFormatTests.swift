import Crypto
import Foundation
import OpenIDConnect
import Testing
@testable import WebAuthn

/// COSE keys, authenticator data and clientDataJSON: written as WebAuthn and CTAP2 lay them out,
/// read back, and refused when malformed.
@Suite("Passkey protocol: keys, authenticator data, client data")
struct PasskeyFormatTests {
    @Test("a P-256 key is an EC2 COSE key, its SPKI is what swift-crypto reads, and it checks its own signatures")
    func es256Key() throws {
        let key = P256.Signing.PrivateKey()
        let point = key.publicKey.rawRepresentation
        let cose = COSEKey.es256(x: point.prefix(32), y: point.suffix(32))
        #expect(try COSEKey(cbor: try CBORDecoder.decode(cose.cbor.encoded)) == cose)
        #expect(try P256.Signing.PublicKey(derRepresentation: cose.subjectPublicKeyInfo).rawRepresentation == point)
        let message = Data("signed".utf8)
        #expect(cose.verifies(try key.signature(for: message).derRepresentation, of: message))
        #expect(!cose.verifies(try key.signature(for: message).derRepresentation, of: Data("other".utf8)))
    }

    @Test("an Ed25519 key is an OKP COSE key with RFC 8410's SPKI")
    func edDSAKey() throws {
        let key = Curve25519.Signing.PrivateKey()
        let cose = COSEKey.edDSA(key.publicKey.rawRepresentation)
        #expect(try COSEKey(cbor: try CBORDecoder.decode(cose.cbor.encoded)) == cose)
        #expect(cose.subjectPublicKeyInfo.count == 44)
        #expect(cose.subjectPublicKeyInfo.suffix(32) == key.publicKey.rawRepresentation)
        let message = Data("signed".utf8)
        #expect(cose.verifies(try key.signature(for: message), of: message))
    }

    @Test("COSE keys of other kinds, or not on the curve, are refused")
    func foreignKeys() {
        let rsa = CBORValue.map([(1, 3), (3, -257), (-1, .bytes(Data(count: 256))), (-2, .bytes(Data([1, 0, 1])))])
        #expect(throws: WebAuthnFormatError.self) { try COSEKey(cbor: rsa) }
        let offCurve = CBORValue.map([(1, 2), (3, -7), (-1, 1), (-2, .bytes(Data(count: 32))), (-3, .bytes(Data(count: 32)))])
        #expect(throws: WebAuthnFormatError.self) { try COSEKey(cbor: offCurve) }
    }

    @Test("authenticator data is rpIdHash, flags, a big-endian counter and the credential, and reads back")
    func authenticatorData() throws {
        let key = P256.Signing.PrivateKey().publicKey.rawRepresentation
        let credential = AuthenticatorData.AttestedCredential(credentialID: Data(repeating: 7, count: 16),
                                                              publicKey: .es256(x: key.prefix(32), y: key.suffix(32)))
        let data = AuthenticatorData(relyingPartyID: "example.com", flags: [.userPresent, .userVerified], signCount: 0x0102_0304,
                                     attestedCredential: credential)
        let bytes = data.encoded
        #expect(bytes.prefix(32) == Data(SHA256.hash(data: Data("example.com".utf8))))
        #expect(bytes[32] == 0x45)
        #expect(Array(bytes[33..<37]) == [1, 2, 3, 4])
        #expect(try AuthenticatorData(decoding: bytes) == data)
        #expect(throws: WebAuthnFormatError.self, "the flag says a credential follows, and none does") {
            try AuthenticatorData(decoding: bytes.prefix(37))
        }
    }

    @Test("short, cut or padded authenticator data is refused", arguments: [36, 37 + 10, 37 + 18 + 16 + 3])
    func malformedAuthenticatorData(length: Int) throws {
        let key = P256.Signing.PrivateKey().publicKey.rawRepresentation
        let data = AuthenticatorData(relyingPartyID: "example.com", flags: .userPresent, signCount: 1,
                                     attestedCredential: .init(credentialID: Data(count: 16), publicKey: .es256(x: key.prefix(32), y: key.suffix(32))))
        #expect(throws: WebAuthnFormatError.self) { try AuthenticatorData(decoding: data.encoded.prefix(length)) }
        #expect(throws: WebAuthnFormatError.self) { try AuthenticatorData(decoding: data.encoded + Data([0])) }
    }

    @Test("clientDataJSON is written in WebAuthn's order with the origin given, and read back")
    func clientData() throws {
        let data = CollectedClientData(type: .get, challenge: Data([1, 2, 3, 250]), origin: "https://login.example.com")
        #expect(String(decoding: data.json, as: UTF8.self)
            == #"{"type":"webauthn.get","challenge":"AQID-g","origin":"https://login.example.com","crossOrigin":false}"#)
        #expect(try CollectedClientData(json: data.json) == data)
        #expect(data.hash == Data(SHA256.hash(data: data.json)))
        #expect(throws: WebAuthnFormatError.self) { try CollectedClientData(json: Data(#"{"type":"payment.get"}"#.utf8)) }
    }
}
