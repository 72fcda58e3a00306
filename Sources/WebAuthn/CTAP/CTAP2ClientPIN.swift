import Crypto
import CryptoExtras
import Foundation
import OpenIDConnect
import WebAuthSupport

/// The authenticator's side of CTAP2's PIN protocol 1 (CTAP 2.0 §5.5, authenticatorClientPIN):
/// a key whose PIN is set answers getRetries, getKeyAgreement and getPinToken, and checks the
/// `pinAuth` of makeCredential and getAssertion. The software security key uses it, so that
/// libfido2's real PIN path (ECDH, AES-256-CBC, HMAC) runs against it. The PIN itself is never
/// kept: only the first 16 bytes of its SHA-256, as a key keeps it.
public final class CTAP2ClientPIN: Sendable {
    private struct State {
        var pinHash: Data
        var retries = 8
        var keyAgreement = P256.KeyAgreement.PrivateKey()
        var token = CTAP2ClientPIN.randomBytes(32)
    }

    private let state: LockedState<State>

    /// A key whose PIN is `pin`.
    public init(pin: String) {
        state = LockedState(State(pinHash: Data(SHA256.hash(data: Data(pin.utf8))).prefix(16)))
    }

    /// Tries left before the key blocks its PIN.
    public var retries: Int { state.withLock { $0.retries } }

    /// authenticatorClientPIN's answer to `parameters` (`{1: protocol, 2: subCommand, 3: keyAgreement, 6: pinHashEnc}`).
    func respond(to parameters: CBORValue) throws(CTAP2Status) -> CBORValue {
        guard parameters[1]?.intValue == 1 else { throw .invalidParameter }
        switch parameters[2]?.intValue {
        case 1:  // getRetries
            return .map([(3, .int(retries))])
        case 2:  // getKeyAgreement
            let point = state.withLock { $0.keyAgreement.publicKey.rawRepresentation }
            return .map([(1, .map([(1, 2), (3, -25), (-1, 1), (-2, .bytes(point.prefix(32))), (-3, .bytes(point.suffix(32)))]))])
        case 5:  // getPinToken
            guard let platform = parameters[3], let encrypted = parameters[6]?.bytesValue else { throw .missingParameter }
            return .map([(2, .bytes(try pinToken(platformKey: platform, pinHashEnc: encrypted)))])
        default:
            throw .invalidParameter
        }
    }

    /// Whether `pinAuth` (protocol 1) proves the PIN for `clientDataHash`: LEFT(HMAC-SHA-256(token, hash), 16).
    func verifies(pinAuth: Data, clientDataHash: Data) -> Bool {
        let token = state.withLock { $0.token }
        let expected = Data(HMAC<SHA256>.authenticationCode(for: clientDataHash, using: SymmetricKey(data: token))).prefix(16)
        return pinAuth == expected
    }

    private func pinToken(platformKey: CBORValue, pinHashEnc: Data) throws(CTAP2Status) -> Data {
        guard let x = platformKey[-2]?.bytesValue, let y = platformKey[-3]?.bytesValue,
              let platform = try? P256.KeyAgreement.PublicKey(rawRepresentation: x + y) else { throw .invalidParameter }
        return try state.withLock { (state) throws(CTAP2Status) -> Data in
            guard state.retries > 0 else { throw .pinBlocked }
            guard let shared = try? state.keyAgreement.sharedSecretFromKeyAgreement(with: platform) else { throw .invalidParameter }
            let key = SymmetricKey(data: SHA256.hash(data: shared.withUnsafeBytes { Data($0) }))
            guard let iv = try? AES._CBC.IV(ivBytes: Data(count: 16)),
                  let pinHash = try? AES._CBC.decrypt(pinHashEnc, using: key, iv: iv, noPadding: true) else { throw .invalidParameter }
            guard pinHash == state.pinHash else {
                state.retries -= 1
                state.keyAgreement = P256.KeyAgreement.PrivateKey()  // a wrong PIN costs a new key agreement (CTAP 2.0 §5.5.5)
                throw state.retries > 0 ? .pinInvalid : .pinBlocked
            }
            state.retries = 8
            guard let encrypted = try? AES._CBC.encrypt(state.token, using: key, iv: iv, noPadding: true) else { throw .other }
            return encrypted
        }
    }

    private static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
