import Foundation
import OpenIDConnect
import SecretGate
import WebAuthn
internal import CFido2

/// FIDO2 security keys through libfido2: a person touches the key; a key that asks
/// for its PIN gets it from ``pin``, which asks the person (nil: they cancelled), and only after
/// `SecretGate` lets it go to the key. A key that is pulled out, does not answer, or whose
/// request is cancelled ends the request with an ``AuthenticatorError``, never a hang. The
/// attestation the key makes is replaced by `none`, as browsers do when a page asks for none.
public final class SecurityKeyAuthenticator: PasskeyAuthenticator {
    /// Where the key is.
    public let source: SecurityKeySource
    /// Asks the person for the key's PIN (with the tries left, when the key says); nil: cancelled.
    public let pin: @Sendable (_ triesLeft: Int?) async -> String?

    /// An authenticator for the key of `source`, asking for its PIN with `pin`.
    public init(source: SecurityKeySource, pin: @escaping @Sendable (_ triesLeft: Int?) async -> String? = { _ in nil }) {
        self.source = source
        self.pin = pin
    }

    public var kind: PasskeyAuthenticatorKind { .securityKey }

    /// A roaming key is not the platform's authenticator.
    public var isUserVerifying: Bool { false }

    public func makeCredential(_ request: MakeCredentialRequest) async throws(AuthenticatorError) -> MadeCredential {
        guard let algorithm = request.algorithms.first else { throw .unsupportedAlgorithm }
        return try await withPIN { device, pin in Self.makeCredential(request, algorithm: algorithm, on: device, pin: pin) }
    }

    public func getAssertion(_ request: GetAssertionRequest) async throws(AuthenticatorError) -> Assertion {
        try await withPIN { device, pin in Self.getAssertion(request, on: device, pin: pin) }
    }

    /// Runs `operation` on the key, asking for its PIN and running it again while the key asks for one.
    private func withPIN<Value: Sendable>(_ operation: @escaping @Sendable (OpaquePointer, String?) -> Result<Value, FIDOStatus>)
        async throws(AuthenticatorError) -> Value {
        let device = try FIDODevice(source)
        var pin: String?
        while true {
            let given = pin
            guard let outcome = await device.run({ operation($0, given) }) else { throw .notConfirmed("the request was cancelled") }
            switch outcome {
            case .success(let value):
                return value
            case .failure(let status) where status.asksForPIN:
                var tries: Int32 = -1
                let triesLeft = fido_dev_get_retry_count(device.device, &tries) == FIDO_OK && tries >= 0 ? Int(tries) : nil
                guard let typed = await self.pin(pin == nil ? nil : triesLeft), !typed.isEmpty else { throw .pin("no PIN was given") }
                do { try SecretGate().check(.securityKeyPIN, to: .securityKey) } catch { throw .pin("\(error)") }
                pin = typed
            case .failure(let status):
                throw status.authenticatorError
            }
        }
    }

    private static func makeCredential(_ request: MakeCredentialRequest, algorithm: COSEAlgorithm, on device: OpaquePointer,
                                       pin: String?) -> Result<MadeCredential, FIDOStatus> {
        guard let credential = fido_cred_new() else { return .failure(FIDOStatus(FIDO_ERR_INTERNAL)) }
        defer {
            var pointer: OpaquePointer? = credential
            fido_cred_free(&pointer)
        }
        var status = fido_cred_set_type(credential, Int32(algorithm.rawValue))
        status |= request.clientDataHash.withUnsafeBytes { fido_cred_set_clientdata_hash(credential, $0.baseAddress, $0.count) }
        status |= fido_cred_set_rp(credential, request.relyingPartyID, request.relyingPartyName)
        status |= request.userID.withUnsafeBytes {
            fido_cred_set_user(credential, $0.baseAddress, $0.count, request.userName, request.userDisplayName, nil)
        }
        for id in request.excludeCredentials { status |= id.withUnsafeBytes { fido_cred_exclude(credential, $0.baseAddress, $0.count) } }
        status |= fido_cred_set_rk(credential, request.residentKey == .required ? FIDO_OPT_TRUE : FIDO_OPT_OMIT)
        status |= fido_cred_set_uv(credential, request.userVerification == .required ? FIDO_OPT_TRUE : FIDO_OPT_OMIT)
        guard status == FIDO_OK else { return .failure(FIDOStatus(FIDO_ERR_INVALID_ARGUMENT)) }
        let made = FIDOStatus(fido_dev_make_cred(device, credential, pin))
        guard made.isOK else { return .failure(made) }
        let raw = Data(bytes: fido_cred_authdata_raw_ptr(credential), count: fido_cred_authdata_raw_len(credential))
        guard let data = try? AuthenticatorData(decoding: raw), data.attestedCredential != nil else { return .failure(FIDOStatus(FIDO_ERR_RX_INVALID_CBOR)) }
        return .success(MadeCredential(attestationObject: MadeCredential.noneAttestation(data), authenticatorData: data,
                                       isDiscoverable: request.residentKey == .required))
    }

    private static func getAssertion(_ request: GetAssertionRequest, on device: OpaquePointer, pin: String?) -> Result<Assertion, FIDOStatus> {
        guard let assertion = fido_assert_new() else { return .failure(FIDOStatus(FIDO_ERR_INTERNAL)) }
        defer {
            var pointer: OpaquePointer? = assertion
            fido_assert_free(&pointer)
        }
        var status = request.clientDataHash.withUnsafeBytes { fido_assert_set_clientdata_hash(assertion, $0.baseAddress, $0.count) }
        status |= fido_assert_set_rp(assertion, request.relyingPartyID)
        for id in request.allowCredentials { status |= id.withUnsafeBytes { fido_assert_allow_cred(assertion, $0.baseAddress, $0.count) } }
        status |= fido_assert_set_uv(assertion, request.userVerification == .required ? FIDO_OPT_TRUE : FIDO_OPT_OMIT)
        guard status == FIDO_OK else { return .failure(FIDOStatus(FIDO_ERR_INVALID_ARGUMENT)) }
        let asked = FIDOStatus(fido_dev_get_assert(device, assertion, pin))
        guard asked.isOK else { return .failure(asked) }
        guard fido_assert_count(assertion) > 0 else { return .failure(FIDOStatus(FIDO_ERR_NO_CREDENTIALS)) }
        // libfido2 gives the authenticator data as the CBOR byte string the key sent.
        let wrapped = Data(bytes: fido_assert_authdata_ptr(assertion, 0), count: fido_assert_authdata_len(assertion, 0))
        guard let data = (try? CBORDecoder.decode(wrapped))?.bytesValue else { return .failure(FIDOStatus(FIDO_ERR_RX_INVALID_CBOR)) }
        let handleLength = fido_assert_user_id_len(assertion, 0)
        return .success(Assertion(
            credentialID: Data(bytes: fido_assert_id_ptr(assertion, 0), count: fido_assert_id_len(assertion, 0)),
            authenticatorData: data,
            signature: Data(bytes: fido_assert_sig_ptr(assertion, 0), count: fido_assert_sig_len(assertion, 0)),
            userHandle: handleLength > 0 ? Data(bytes: fido_assert_user_id_ptr(assertion, 0), count: handleLength) : nil))
    }
}
