/// Why a `private_key_jwt` client could not sign its assertion: the key file is not there, not a
/// key, or not a key for the algorithm asked for; the token is not there or will not log in.
/// Nothing of the key or the PIN is quoted.
public enum ClientKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key file cannot be read (missing, no permission).
    case unreadable(path: String, message: String)
    /// Group or others can write the key file (``SecretFile``): whoever can write it chooses the key.
    case writableByOthers(path: String, mode: UInt32)
    /// The file is not a PEM private key this client can sign with (a P-256 key, or an RSA key of
    /// at least 2048 bits): a public key, a certificate, an encrypted key, another curve.
    case unsupportedKey(path: String)
    /// The key cannot sign with the algorithm asked for (ES256 needs a P-256 key; RS256 and PS256
    /// an RSA key); `path` is the file or the PKCS#11 URI.
    case algorithmMismatch(path: String, algorithm: String)
    /// No token p11-kit knows holds a key this client can sign with at `uri`, or the token failed.
    case tokenUnavailable(uri: String, message: String)
    /// The token holding `uri` needs its PIN to sign, and none was given.
    case pinNeeded(uri: String)
    /// The token refused the PIN given for `uri` (it is tried once: tokens lock after a few).
    case wrongPIN(uri: String)
    /// The PKCS#11 URI holds a PIN (`pin-value`, `pin-source`), which would be saved and shown
    /// wherever the URI is: give the PIN apart.
    case pinInURI

    public var description: String {
        switch self {
        case .unreadable(let path, let message): "cannot read the client's private key file \(path): \(message)"
        case .writableByOthers(let path, let mode): "the client's private key file: \(SecretFileError.writableByOthers(path: path, mode: mode))"
        case .unsupportedKey(let path):
            "\(path) is not an unencrypted PEM private key for P-256 (ES256) or RSA of 2048 bits or more (RS256, PS256): "
                + "convert it with openssl pkey -in KEY -out \(path)"
        case .algorithmMismatch(let path, let algorithm):
            "the key in \(path) cannot sign \(algorithm): ES256 needs a P-256 key, RS256 and PS256 an RSA key"
        case .tokenUnavailable(let uri, let message): "cannot sign with the PKCS#11 key \(uri): \(message)"
        case .pinNeeded(let uri): "the token that holds \(uri) needs its PIN to sign"
        case .wrongPIN(let uri): "the token that holds \(uri) refused the PIN"
        case .pinInURI: "the PKCS#11 URI holds a PIN (pin-value or pin-source), which would be shown wherever the URI is: give the PIN apart"
        }
    }
}
