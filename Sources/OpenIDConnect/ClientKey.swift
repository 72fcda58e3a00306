import Foundation
internal import JWTKit

/// The private key of a client that authenticates with `private_key_jwt` (RFC 7523 §2.2,
/// OpenID Connect Core §9): where the key is, never the key itself. The key is read again for
/// each client assertion, so a saved sign-in records only this reference.
public struct ClientKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where the key is kept. (A `pkcs11:` URI can join the PEM file as another case.)
    public enum Source: Sendable, Hashable, Codable, CustomStringConvertible {
        /// A PEM file, by path: PKCS#8 (`PRIVATE KEY`), SEC 1 (`EC PRIVATE KEY`) or PKCS#1
        /// (`RSA PRIVATE KEY`); a P-256 or an RSA (2048 bits or more) key.
        case pemFile(String)

        /// Where, never what.
        public var description: String {
            switch self {
            case .pemFile(let path): "the PEM file \(path)"
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

    /// A key reference.
    public init(_ source: Source, keyID: String? = nil, algorithm: Algorithm? = nil) {
        self.source = source
        self.keyID = keyID
        self.algorithm = algorithm
    }

    /// The key in the PEM file at `path`.
    public static func pemFile(_ path: String, keyID: String? = nil, algorithm: Algorithm? = nil) -> ClientKey {
        ClientKey(.pemFile(path), keyID: keyID, algorithm: algorithm)
    }

    /// Where the key is, and its `kid`.
    public var description: String {
        "\(source)" + (keyID.map { " (kid \($0))" } ?? "")
    }

    /// The key, read now, with the algorithm it signs with.
    /// - Throws: ``ClientKeyError``.
    func signer() async throws(ClientKeyError) -> (keys: JWTKeyCollection, algorithm: Algorithm) {
        switch source {
        case .pemFile(let path):
            let pem: String
            do { pem = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw .unreadable(path: path, message: error.localizedDescription)
            }
            let keys = JWTKeyCollection()
            let kid = keyID.map { JWKIdentifier(string: $0) }
            if let ec = try? ES256PrivateKey(pem: pem) {
                if let algorithm, algorithm != .es256 { throw .algorithmMismatch(path: path, algorithm: algorithm.rawValue) }
                await keys.add(ecdsa: ec, kid: kid)
                return (keys, .es256)
            }
            if let rsa = try? Insecure.RSA.PrivateKey(pem: pem) {
                switch algorithm ?? .rs256 {
                case .rs256: await keys.add(rsa: rsa, digestAlgorithm: .sha256, kid: kid)
                case .ps256: await keys.add(pss: rsa, digestAlgorithm: .sha256, kid: kid)
                case .es256: throw .algorithmMismatch(path: path, algorithm: Algorithm.es256.rawValue)
                }
                return (keys, algorithm ?? .rs256)
            }
            throw .unsupportedKey(path: path)
        }
    }
}
