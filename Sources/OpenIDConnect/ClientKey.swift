import Crypto
import Foundation
import CryptoExtras

/// The private key of a client that authenticates with `private_key_jwt` (RFC 7523 §2.2,
/// OpenID Connect Core §9): where the key is, never the key itself. The key is read again for
/// each client assertion, so a saved sign-in records only this reference.
public struct ClientKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where the key is kept.
    public enum Source: Sendable, Hashable, Codable, CustomStringConvertible {
        /// A PEM file, by path: PKCS#8 (`PRIVATE KEY`), SEC 1 (`EC PRIVATE KEY`) or PKCS#1
        /// (`RSA PRIVATE KEY`); a P-256 or an RSA (2048 bits or more) key.
        case pemFile(String)
        /// A key on a PKCS#11 token (a smart card, an HSM), by its URI, e.g.
        /// `pkcs11:token=app;object=client-key`: it signs there and never leaves the token.
        /// The token's modules are the ones p11-kit knows; its PIN is ``ClientKey/pin``.
        case pkcs11(String)

        /// Where, never what.
        public var description: String {
            switch self {
            case .pemFile(let path): "the PEM file \(path)"
            case .pkcs11(let uri): "the PKCS#11 key \(uri)"
            }
        }
    }

    /// The signature algorithms of client assertions.
    public enum Algorithm: String, Sendable, Hashable, Codable, CaseIterable {
        /// ECDSA with P-256 and SHA-256: the only choice for an EC key.
        case es256 = "ES256"
        /// RSASSA-PKCS1-v1_5 with SHA-256: the default for an RSA key.
        case rs256 = "RS256"
        /// RSASSA-PSS with SHA-256, for an RSA key (what FAPI asks for).
        case ps256 = "PS256"
    }

    /// Where the key is.
    public var source: Source
    /// The `kid` the provider knows the key by (sent in the assertion's header), if it needs one.
    public var keyID: String?
    /// The algorithm; `nil` takes the key's own: ES256 for a P-256 key, RS256 for an RSA key.
    public var algorithm: Algorithm?
    /// The PIN that logs in to a PKCS#11 token. Never saved (a saved sign-in's key gets it again
    /// from its program) and never described.
    public var pin: String?

    private enum CodingKeys: String, CodingKey { case source, keyID, algorithm }

    /// A key reference.
    public init(_ source: Source, keyID: String? = nil, algorithm: Algorithm? = nil, pin: String? = nil) {
        self.source = source
        self.keyID = keyID
        self.algorithm = algorithm
        self.pin = pin
    }

    /// The key in the PEM file at `path`.
    public static func pemFile(_ path: String, keyID: String? = nil, algorithm: Algorithm? = nil) -> ClientKey {
        ClientKey(.pemFile(path), keyID: keyID, algorithm: algorithm)
    }

    /// The key on a PKCS#11 token that `uri` names, logged in to with `pin`.
    /// - Throws: ``ClientKeyError/pinInURI`` when the URI holds a PIN, which would be saved and shown
    ///   wherever the URI is; ``ClientKeyError/tokenUnavailable(uri:message:)`` for what is not a `pkcs11:` URI.
    public static func pkcs11(_ uri: String, pin: String? = nil, keyID: String? = nil,
                              algorithm: Algorithm? = nil) throws(ClientKeyError) -> ClientKey {
        guard PKCS11URI.isURI(uri) else { throw .tokenUnavailable(uri: uri, message: "not a PKCS#11 URI (pkcs11:…)") }
        guard !PKCS11URI.holdsPIN(uri) else { throw .pinInURI }
        return ClientKey(.pkcs11(uri), keyID: keyID, algorithm: algorithm, pin: pin)
    }

    /// Where the key is, and its `kid`.
    public var description: String {
        "\(source)" + (keyID.map { " (kid \($0))" } ?? "")
    }

    /// Signs what `message` makes for the algorithm the key signs with (a JWS header names it),
    /// reading the key now.
    /// - Returns: the message and its JWS signature (for ES256, r and s of 32 bytes each).
    /// - Throws: ``ClientKeyError``.
    func sign(_ message: @escaping @Sendable (Algorithm) -> Data) async throws(ClientKeyError) -> (message: Data, signature: Data) {
        switch source {
        case .pemFile(let path): return try signWithPEM(at: path, message)
        case .pkcs11(let uri): return try await PKCS11Signing.sign(message, uri: uri, pin: pin, algorithm: algorithm)
        }
    }

    /// Checks the PEM file's permissions (``SecretFile``), for a caller that shows the warning
    /// before it signs: signing refuses a file others can write, but has no one to warn.
    /// - Returns: the warning for a file group or others can read, the first time in this process; `nil` for a PKCS#11 key.
    /// - Throws: ``ClientKeyError/writableByOthers(path:mode:)``, ``ClientKeyError/unreadable(path:message:)``.
    public func checkFile() throws(ClientKeyError) -> SecretFileWarning? {
        guard case .pemFile(let path) = source else { return nil }
        do { return try SecretFile.check(path) } catch { throw Self.error(error) }
    }

    private static func error(_ error: SecretFileError) -> ClientKeyError {
        switch error {
        case .writableByOthers(let path, let mode): .writableByOthers(path: path, mode: mode)
        case .unreadable(let path, let message): .unreadable(path: path, message: message)
        }
    }

    private func signWithPEM(at path: String, _ message: (Algorithm) -> Data) throws(ClientKeyError) -> (message: Data, signature: Data) {
        let pem: String
        do { pem = try SecretFile.read(path).text } catch { throw Self.error(error) }
        if let ec = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            if let algorithm, algorithm != .es256 { throw .algorithmMismatch(path: path, algorithm: algorithm.rawValue) }
            let input = message(.es256)
            guard let signature = try? ec.signature(for: input) else { throw .unsupportedKey(path: path) }
            return (input, signature.rawRepresentation)
        }
        if let rsa = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) {
            let chosen = algorithm ?? .rs256
            if chosen == .es256 { throw .algorithmMismatch(path: path, algorithm: chosen.rawValue) }
            let input = message(chosen)
            guard let signature = try? rsa.signature(for: input, padding: chosen == .ps256 ? .PSS : .insecurePKCS1v1_5) else {
                throw .unsupportedKey(path: path)
            }
            return (input, signature.rawRepresentation)
        }
        throw .unsupportedKey(path: path)
    }
}
