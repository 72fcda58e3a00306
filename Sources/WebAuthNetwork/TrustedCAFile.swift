import Foundation
import GLibKit
package import CSoup

/// The certificate authorities of a PEM file, trusted beside the system's: for a provider with
/// an internal CA. A server certificate the system's authorities reject is accepted when its
/// chain leads to one of these and it names the host; GLib's TLS database (GnuTLS, the backend
/// of WebKit and libsoup) checks that. Give it to ``WebAuthenticationOptions/caFile`` and
/// ``SoupHTTPClient``.
public final class TrustedCAFile: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: after init the database is only read (`g_tls_database_verify_chain`), and
    // GLib's TLS databases may be used from any thread.
    /// The file.
    public let path: String
    private let database: GObjectReference<UnsafeMutablePointer<GTlsDatabase>>

    /// Reads the PEM file at `path`.
    /// - Throws: ``TrustedCAFileError`` when it cannot be read or holds no certificate.
    public init(path: String) throws(TrustedCAFileError) {
        self.path = path
        do {
            // The database takes a file with no certificate in it; a first certificate must be there.
            _ = GObjectReference(adopting: try GLibError.attempt { g_tls_certificate_new_from_file(path, $0) }!)
            database = GObjectReference(adopting: try GLibError.attempt { g_tls_file_database_new(path, $0) }!)
        } catch {
            throw .unreadable(path: path, message: error.message)
        }
    }

    public var description: String { path }

    /// Whether `certificate` (with the chain the server sent) leads to one of these authorities,
    /// is valid now, and is made out to `host`.
    package func trusts(_ certificate: UnsafeMutablePointer<GTlsCertificate>, host: String) -> Bool {
        let identity = GObjectReference(adopting: g_network_address_new(host, 0)!)
        var error: UnsafeMutablePointer<GError>?
        let flags = database.withPointer { database in
            identity.withPointer { g_tls_database_verify_chain(database, certificate, G_TLS_DATABASE_PURPOSE_AUTHENTICATE_SERVER, $0,
                                                               nil, G_TLS_DATABASE_VERIFY_NONE, nil, &error) }
        }
        return GLibError.taking(error) == nil && flags.rawValue == 0
    }
}

/// Why a CA file cannot be used.
public enum TrustedCAFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file cannot be read or holds no PEM certificate: check the path and that it holds
    /// `-----BEGIN CERTIFICATE-----` blocks.
    case unreadable(path: String, message: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let message): "the CA file \(path) cannot be read as PEM certificates: \(message)"
        }
    }
}
