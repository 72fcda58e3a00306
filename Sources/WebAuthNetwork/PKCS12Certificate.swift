import GLibKit
internal import CGnuTLS
package import CSoup

/// A PKCS#12 file's certificate chain and private key as a `GTlsCertificate`, read with GnuTLS
/// rather than with `g_tls_certificate_new_from_pkcs12`.
///
/// glib-networking (2.74, Debian 12's) first tries the file with no password, and keeps that
/// attempt's error unless it was "wrong password": when the bags decrypted with the wrong key
/// happen to end in valid padding (about one file in several hundred), the error is an ASN.1 one,
/// and the file never opens, whatever the password. Here the password is checked first (the
/// file's MAC), then the bags are read once, with it; the certificate is handed to GIO as PEM in
/// memory, the key's copy wiped after.
enum PKCS12Certificate {
    /// The certificate (its issuers after it, as the file gives them) and key in `data`, opened by
    /// `password` (none: the empty one, as a file exported without one has).
    /// - Throws: ``ClientCertificateError/wrongPassword(path:passwordGiven:)`` when the password does not open
    ///   the file, ``ClientCertificateError/unreadable(path:message:)`` when it is not PKCS#12 or holds no certificate and key.
    static func read(_ data: [UInt8], password: String?, path: String) throws(ClientCertificateError)
        -> GObjectReference<UnsafeMutablePointer<GTlsCertificate>> {
        var file: gnutls_pkcs12_t?
        guard gnutls_pkcs12_init(&file) == 0, let file else { throw .unreadable(path: path, message: "GnuTLS could not start a PKCS #12 reader") }
        defer { gnutls_pkcs12_deinit(file) }
        var status = data.withUnsafeBufferPointer { bytes in
            var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: bytes.baseAddress), size: UInt32(bytes.count))
            return gnutls_pkcs12_import(file, &datum, GNUTLS_X509_FMT_DER, 0)
        }
        guard status == 0 else { throw Self.failure(status, path: path, password: password) }
        status = gnutls_pkcs12_verify_mac(file, password ?? "")
        // A file without a MAC is read on: a wrong password then fails to decrypt it.
        guard status != GNUTLS_E_MAC_VERIFY_FAILED else { throw .wrongPassword(path: path, passwordGiven: password != nil) }
        var key: gnutls_x509_privkey_t?
        var chain: UnsafeMutablePointer<gnutls_x509_crt_t?>?
        var chainLength: UInt32 = 0
        status = gnutls_pkcs12_simple_parse(file, password ?? "", &key, &chain, &chainLength, nil, nil, nil, UInt32(GNUTLS_PKCS12_SP_INCLUDE_SELF_SIGNED))
        defer {
            if let key { gnutls_x509_privkey_deinit(key) }
            for index in 0..<Int(chainLength) { chain?[index].map(gnutls_x509_crt_deinit) }
            if let chain { cgnutls_free(chain) }
        }
        guard status == 0, let key, let chain, chainLength > 0 else { throw Self.failure(status, path: path, password: password) }
        var pem: [UInt8] = []
        defer { pem.withUnsafeMutableBytes { gnutls_memset($0.baseAddress, 0, $0.count) } }
        for index in 0..<Int(chainLength) {
            guard let certificate = chain[index] else { continue }
            var text = gnutls_datum_t()
            guard gnutls_x509_crt_export2(certificate, GNUTLS_X509_FMT_PEM, &text) == 0 else { throw .unreadable(path: path, message: "GnuTLS could not export its certificate") }
            pem.append(contentsOf: UnsafeBufferPointer(start: text.data, count: Int(text.size)))
            cgnutls_free_datum(&text)
        }
        var keyText = gnutls_datum_t()
        guard gnutls_x509_privkey_export2_pkcs8(key, GNUTLS_X509_FMT_PEM, nil, UInt32(GNUTLS_PKCS_PLAIN.rawValue), &keyText) == 0 else {
            throw .unreadable(path: path, message: "GnuTLS could not export its private key")
        }
        pem.append(contentsOf: UnsafeBufferPointer(start: keyText.data, count: Int(keyText.size)))
        gnutls_memset(keyText.data, 0, Int(keyText.size))
        cgnutls_free_datum(&keyText)
        do throws(GLibError) {
            let made = try GLibError.attempt { error in
                pem.withUnsafeBufferPointer { text in
                    text.withMemoryRebound(to: CChar.self) { g_tls_certificate_new_from_pem($0.baseAddress, gssize($0.count), error) }
                }
            }
            return GObjectReference(adopting: made!)
        } catch {
            throw .unreadable(path: path, message: error.message)
        }
    }

    /// What GnuTLS's `status` means for the file at `path`.
    private static func failure(_ status: Int32, path: String, password: String?) -> ClientCertificateError {
        if status == GNUTLS_E_DECRYPTION_FAILED { return .wrongPassword(path: path, passwordGiven: password != nil) }
        let message = status == 0 ? "it holds no certificate with its private key" : "not a PKCS #12 file GnuTLS can read: " + String(cString: gnutls_strerror(status))
        return .unreadable(path: path, message: message)
    }
}
