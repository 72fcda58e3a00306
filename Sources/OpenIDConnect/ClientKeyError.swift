/// Why a `private_key_jwt` client could not sign its assertion: the key file is not there, not a
/// key, or not a key for the algorithm asked for. Nothing of the key is quoted.
public enum ClientKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key file cannot be read (missing, no permission).
    case unreadable(path: String, message: String)
    /// The file is not a PEM private key this client can sign with (a P-256 key, or an RSA key of
    /// at least 2048 bits): a public key, a certificate, an encrypted key, another curve.
    case unsupportedKey(path: String)
    /// The key cannot sign with the algorithm asked for (ES256 needs a P-256 key; RS256 and PS256 an RSA key).
    case algorithmMismatch(path: String, algorithm: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let message): "cannot read the client's private key file \(path): \(message)"
        case .unsupportedKey(let path):
            "\(path) is not an unencrypted PEM private key for P-256 (ES256) or RSA of 2048 bits or more (RS256, PS256): "
                + "convert it with openssl pkey -in KEY -out \(path)"
        case .algorithmMismatch(let path, let algorithm):
            "the key in \(path) cannot sign \(algorithm): ES256 needs a P-256 key, RS256 and PS256 an RSA key"
        }
    }
}
