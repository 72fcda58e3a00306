import Foundation
import GLibKit
import OpenIDConnect
package import CSoup

/// A client certificate and its private key, for a provider that asks for one in the TLS
/// handshake (mutual TLS, a smart card): the sign-in page and ``SoupHTTPClient`` present it. Read
/// now, so that a file or token that cannot be used fails before any page opens. Give it to
/// ``WebAuthenticationOptions/clientCertificate`` and ``SoupHTTPClient``.
public final class ClientCertificate: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: after init the certificate is only read (handed to WebKit and libsoup, which
    // take references of their own), and GLib's TLS certificates may be used from any thread.

    /// Where the certificate and its key are.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// A PEM file (the certificate, and its key unless `keyPath` names the key's PEM file) or
        /// a PKCS#12 file (`.p12`, `.pfx`).
        case file(path: String, keyPath: String?)
        /// A certificate and key on a PKCS#11 token that p11-kit knows (a smart card, SoftHSM),
        /// e.g. `pkcs11:token=alice;object=login`.
        case pkcs11(uri: String)

        public var description: String {
            switch self {
            case .file(let path, let keyPath): keyPath.map { "\(path) (key \($0))" } ?? path
            case .pkcs11(let uri): uri
            }
        }
    }

    /// Where the certificate and its key are.
    public let source: Source
    /// The PKCS#11 token's PIN, given when the handshake asks for it; never described.
    package let pin: String?
    /// The certificate with its key (or the key's PKCS#11 URI).
    package let certificate: GObjectReference<UnsafeMutablePointer<GTlsCertificate>>

    /// Reads a PEM or PKCS#12 file: `path` holds the certificate, and its key unless `keyPath`
    /// names the key's PEM file; `password` opens a PKCS#12 file. The file with the key is a
    /// `SecretFile`: refused when others can write it, logged as a warning when they can read it.
    /// - Throws: ``ClientCertificateError`` when a file cannot be read, holds no key, or the password does not open it.
    public init(file path: String, keyPath: String? = nil, password: String? = nil) throws(ClientCertificateError) {
        source = .file(path: path, keyPath: keyPath)
        pin = nil
        // The key's file (with no key file, the certificate's, which holds the key) is a secret file.
        // A file not there is left to the reads below, which say so.
        do { try SecretFile.checkLoggingWarning(keyPath ?? path) } catch .writableByOthers(let path, let mode) {
            throw .writableByOthers(path: path, mode: mode)
        } catch {}
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path, message: "no such readable file") }
        if keyPath == nil, !String(decoding: data, as: UTF8.self).contains("-----BEGIN ") {
            certificate = try PKCS12Certificate.read([UInt8](data), password: password, path: path)
        } else {
            do throws(GLibError) {
                if let keyPath {
                    certificate = GObjectReference(adopting: try GLibError.attempt { g_tls_certificate_new_from_files(path, keyPath, $0) }!)
                } else {
                    certificate = GObjectReference(adopting: try GLibError.attempt { g_tls_certificate_new_from_file(path, $0) }!)
                }
            } catch {
                throw .unreadable(path: keyPath ?? path, message: error.message)
            }
        }
        guard certificate.withPointer({ cwk_tls_certificate_has_private_key($0) }) != 0 else { throw .noPrivateKey(path: path) }
    }

    /// Finds the certificate named by the PKCS#11 URI `uri` on its token; its key is the private
    /// key the same URI names. `pin` logs in to the token when the handshake needs the key.
    /// - Throws: ``ClientCertificateError`` when no token p11-kit knows holds the certificate, or the URI holds a PIN.
    public init(pkcs11 uri: String, pin: String? = nil) throws(ClientCertificateError) {
        guard PKCS11URI.isURI(uri) else { throw .tokenUnavailable(uri: uri, message: "not a PKCS#11 URI (pkcs11:…)") }
        guard !PKCS11URI.holdsPIN(uri) else { throw .pinInURI }
        source = .pkcs11(uri: uri)
        self.pin = pin
        // Without `type=`, the URI names both the certificate and its key.
        let keyURI = uri.replacingOccurrences(of: "type=cert", with: "type=private")
        do {
            certificate = GObjectReference(adopting: try GLibError.attempt { g_tls_certificate_new_from_pkcs11_uris(uri, keyURI, $0) }!)
        } catch {
            throw .tokenUnavailable(uri: uri, message: error.message)
        }
    }

    public var description: String { source.description }
}

/// Why a client certificate cannot be used. Never holds a password or a PIN.
public enum ClientCertificateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file at `path` cannot be read, or holds no certificate (or key) in PEM or PKCS#12.
    case unreadable(path: String, message: String)
    /// The PEM file at `path` holds a certificate but no private key: name the key's file too.
    case noPrivateKey(path: String)
    /// Group or others can write the file with the key (`SecretFile`): whoever can write it chooses the key.
    case writableByOthers(path: String, mode: UInt32)
    /// The PKCS#12 file at `path` needs a password, and the one given (if any) does not open it.
    case wrongPassword(path: String, passwordGiven: Bool)
    /// No PKCS#11 token that p11-kit knows holds the certificate `uri` names: check that the
    /// token (smart card) is present, that its module is registered with p11-kit, and the URI.
    case tokenUnavailable(uri: String, message: String)
    /// The PKCS#11 URI holds the PIN (`pin-value`, `pin-source`), which would show wherever the URI does: give the PIN apart.
    case pinInURI

    public var description: String {
        switch self {
        case .unreadable(let path, let message): "the client certificate \(path) cannot be read: \(message)"
        case .noPrivateKey(let path): "the client certificate \(path) holds no private key: give the key's file too"
        case .writableByOthers(let path, let mode): "the client certificate's key: \(SecretFileError.writableByOthers(path: path, mode: mode))"
        case .wrongPassword(let path, let given):
            given ? "the password does not open the client certificate \(path)" : "the client certificate \(path) needs a password, and none was given"
        case .tokenUnavailable(let uri, let message): "no PKCS#11 token holds the client certificate \(uri): \(message)"
        case .pinInURI: "the PKCS#11 URI holds a PIN (pin-value or pin-source), which would be shown wherever the URI is: give the PIN apart"
        }
    }
}
