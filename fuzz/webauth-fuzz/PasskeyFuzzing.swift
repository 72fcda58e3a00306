import Foundation
import OpenIDConnect
import WebAuthn

/// What a page and an authenticator send the engine's WebAuthn code: CTAPHID reports
/// and CTAP2 CBOR (as libfido2, or anything posing as a key, writes them), and a page's options
/// and a relying party's view of a response.
enum PasskeyFuzzing {
    /// The bytes as 64-byte CTAPHID reports to a fresh software key, every answer read; then the
    /// whole input as one CTAP2 command; then as CBOR.
    static func ctap(_ data: Data) {
        guard let authenticator = try? VirtualAuthenticator() else { return }
        let responder = CTAP2Responder(authenticator: authenticator)
        let device = CTAPHIDDevice(responder: responder)
        var offset = data.startIndex
        while offset < data.endIndex {
            device.write(data[offset..<min(offset + CTAPHIDDevice.reportSize, data.endIndex)])
            offset += CTAPHIDDevice.reportSize
            while device.read() != nil {}
        }
        _ = responder.respond(to: data)
        if let value = try? CBORDecoder.decode(data) {
            _ = try? COSEKey(cbor: value)
            precondition((try? CBORDecoder.decode(value.encoded)) != nil, "what the decoder reads, the encoder writes readably")
        }
        _ = try? AuthenticatorData(decoding: data)
    }

    /// The relying party every response is checked against.
    static let verifier = RelyingPartyVerifier(relyingPartyID: "localhost", origins: ["http://localhost:8080"])

    /// The text as a page's create and get options, and as responses a relying party verifies.
    static func webAuthn(_ data: Data) {
        guard let json = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)) else {
            _ = try? CollectedClientData(json: data)
            return
        }
        _ = try? CredentialCreationOptions(json: json)
        _ = try? CredentialRequestOptions(json: json)
        _ = try? CollectedClientData(json: data)
        let challenge = Data(repeating: 1, count: 32)
        if let credential = try? verifier.verifyRegistration(json, challenge: challenge) {
            _ = try? verifier.verifyAssertion(json, challenge: challenge, credential: credential)
        }
    }
}
