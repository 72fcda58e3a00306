import Foundation
import WebAuthSupport
#if canImport(CGnuTLS)
internal import CGnuTLS
#endif

/// Signing with a private key on a PKCS#11 token (a smart card, an HSM, SoftHSM2) through GnuTLS,
/// which finds the token among the modules p11-kit knows. The key never leaves the token.
enum PKCS11Signing {
    /// Opens the key `uri` names (logging in with `pin` when the token asks, once), and signs what
    /// `message` makes for `algorithm`, else the key's own (ES256 for P-256, RS256 for RSA).
    /// A token may take its time (a card reader): this runs on a thread of its own, not the pool.
    static func sign(_ message: @escaping @Sendable (ClientKey.Algorithm) -> Data, uri: String, pin: String?,
                     algorithm: ClientKey.Algorithm?) async throws(ClientKeyError) -> (message: Data, signature: Data) {
        try await onOwnThread(named: "PKCS#11 signing") { () throws(ClientKeyError) in
            try signNow(message, uri: uri, pin: pin, algorithm: algorithm)
        }
    }

    #if canImport(CGnuTLS)
    private static func signNow(_ message: (ClientKey.Algorithm) -> Data, uri: String, pin: String?,
                                algorithm: ClientKey.Algorithm?) throws(ClientKeyError) -> (message: Data, signature: Data) {
        var opened: gnutls_privkey_t?
        guard gnutls_privkey_init(&opened) == 0, let key = opened else { throw .tokenUnavailable(uri: uri, message: "GnuTLS could not make a key") }
        defer { gnutls_privkey_deinit(key) }
        // The callback reads the PIN from this copy, wiped once the key is done with.
        let pinCopy = pin.flatMap { strdup($0) }
        defer { if let pinCopy { memset(pinCopy, 0, strlen(pinCopy)); free(pinCopy) } }
        gnutls_privkey_set_pin_function(key, cgnutls_pin_once, pinCopy)
        let imported = gnutls_privkey_import_url(key, uri, 0)
        guard imported >= 0 else { throw failure(imported, uri: uri, pinGiven: pin != nil) }

        var bits: UInt32 = 0
        let kind = gnutls_privkey_get_pk_algorithm(key, &bits)
        let chosen: ClientKey.Algorithm
        switch kind {
        // A token's EC private key may not tell its size (0): the signature's width tells below.
        case Int32(GNUTLS_PK_ECDSA.rawValue) where bits == 256 || bits == 0:
            if let algorithm, algorithm != .es256 { throw .algorithmMismatch(path: uri, algorithm: algorithm.rawValue) }
            chosen = .es256
        case Int32(GNUTLS_PK_RSA.rawValue) where bits >= 2048:
            if algorithm == .es256 { throw .algorithmMismatch(path: uri, algorithm: ClientKey.Algorithm.es256.rawValue) }
            chosen = algorithm ?? .rs256
        default:
            throw .tokenUnavailable(uri: uri, message: "the key is neither P-256 (ES256) nor RSA of 2048 bits or more (RS256, PS256)")
        }
        let signAlgorithm = switch chosen {
        case .es256: GNUTLS_SIGN_ECDSA_SHA256
        case .rs256: GNUTLS_SIGN_RSA_SHA256
        case .ps256: GNUTLS_SIGN_RSA_PSS_RSAE_SHA256
        }
        let input = message(chosen)
        var signature = gnutls_datum_t()
        let signed = input.withUnsafeBytes { bytes in
            var data = gnutls_datum_t(data: UnsafeMutablePointer(mutating: bytes.bindMemory(to: UInt8.self).baseAddress), size: UInt32(bytes.count))
            return gnutls_privkey_sign_data2(key, signAlgorithm, 0, &data, &signature)
        }
        guard signed >= 0 else { throw failure(signed, uri: uri, pinGiven: pin != nil) }
        defer { cgnutls_free_datum(&signature) }
        guard chosen == .es256 else { return (input, Data(bytes: signature.data, count: Int(signature.size))) }
        // GnuTLS gives ECDSA's (r, s) as DER; a JWS wants each as 32 big-endian bytes.
        var (r, s) = (gnutls_datum_t(), gnutls_datum_t())
        guard gnutls_decode_rs_value(&signature, &r, &s) == 0 else { throw .tokenUnavailable(uri: uri, message: "the token's signature is not ECDSA's") }
        defer { cgnutls_free_datum(&r); cgnutls_free_datum(&s) }
        guard let r = fixedWidth(r, 32), let s = fixedWidth(s, 32) else {
            throw .tokenUnavailable(uri: uri, message: "the key is an EC key of another curve than P-256, which ES256 needs")
        }
        return (input, r + s)
    }

    /// A DER integer's bytes as exactly `width` big-endian bytes (its sign byte dropped, zeros in
    /// front); nil when it is wider (a larger curve's).
    private static func fixedWidth(_ integer: gnutls_datum_t, _ width: Int) -> Data? {
        let bytes = Data(bytes: integer.data, count: Int(integer.size)).drop { $0 == 0 }
        guard bytes.count <= width else { return nil }
        return Data(repeating: 0, count: width - bytes.count) + bytes
    }

    /// The typed error for GnuTLS's `code`.
    private static func failure(_ code: Int32, uri: String, pinGiven: Bool) -> ClientKeyError {
        switch code {
        case GNUTLS_E_PKCS11_PIN_ERROR where pinGiven: .wrongPIN(uri: uri)
        case GNUTLS_E_PKCS11_PIN_ERROR: .pinNeeded(uri: uri)
        // Without a login the token hides its private keys: with no PIN, "no such key" means "give the PIN".
        case GNUTLS_E_PKCS11_REQUESTED_OBJECT_NOT_AVAILBLE where !pinGiven: .pinNeeded(uri: uri)
        default: .tokenUnavailable(uri: uri, message: String(cString: gnutls_strerror(code)))
        }
    }
    #else
    private static func signNow(_ message: (ClientKey.Algorithm) -> Data, uri: String, pin: String?,
                                algorithm: ClientKey.Algorithm?) throws(ClientKeyError) -> (message: Data, signature: Data) {
        throw .tokenUnavailable(uri: uri, message: "PKCS#11 keys are signed with through GnuTLS, which this build does not have")
    }
    #endif
}
