import Crypto
import Foundation
import OpenIDConnect

/// One credential of the virtual authenticator: its ID, whom it is for, and its private key.
/// Its description names the relying party and the user, never the key.
public struct VirtualCredential: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The credential ID (16 random bytes).
    public var id: Data
    /// The relying party it signs for.
    public var relyingPartyID: String
    /// The user handle the relying party gave.
    public var userHandle: Data
    /// The account's name.
    public var userName: String
    /// The account's display name.
    public var userDisplayName: String
    /// Its algorithm.
    public var algorithm: COSEAlgorithm
    /// The private key's raw representation (P-256 scalar, or Ed25519 seed).
    var privateKey: Data
    /// Signatures made so far.
    public var signCount: UInt32
    /// Whether a page may find it without naming it (resident).
    public var isDiscoverable: Bool
    /// When it was made.
    public var created: Date

    /// A new credential with a fresh key of `algorithm`.
    init(relyingPartyID: String, userHandle: Data, userName: String, userDisplayName: String, algorithm: COSEAlgorithm,
         isDiscoverable: Bool) {
        var generator = SystemRandomNumberGenerator()
        id = Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        (self.relyingPartyID, self.userHandle, self.userName, self.userDisplayName) = (relyingPartyID, userHandle, userName, userDisplayName)
        self.algorithm = algorithm
        privateKey = switch algorithm {
        case .es256: P256.Signing.PrivateKey().rawRepresentation
        case .edDSA: Curve25519.Signing.PrivateKey().rawRepresentation
        }
        signCount = 0
        self.isDiscoverable = isDiscoverable
        created = Date()
    }

    /// The public key.
    public var publicKey: COSEKey {
        get throws(AuthenticatorError) {
            switch algorithm {
            case .es256:
                guard let key = try? P256.Signing.PrivateKey(rawRepresentation: privateKey) else { throw .store("a damaged ES256 key") }
                let point = key.publicKey.rawRepresentation
                return .es256(x: point.prefix(32), y: point.suffix(32))
            case .edDSA:
                guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: privateKey) else { throw .store("a damaged EdDSA key") }
                return .edDSA(key.publicKey.rawRepresentation)
            }
        }
    }

    /// The signature of `message`: DER ECDSA for ES256, 64 bytes for EdDSA.
    func sign(_ message: Data) throws(AuthenticatorError) -> Data {
        switch algorithm {
        case .es256:
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: privateKey),
                  let signature = try? key.signature(for: message) else { throw .store("a damaged ES256 key") }
            return signature.derRepresentation
        case .edDSA:
            guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: privateKey),
                  let signature = try? key.signature(for: message) else { throw .store("a damaged EdDSA key") }
            return signature
        }
    }

    public var description: String { "\(algorithm) credential of \(userName.isEmpty ? "an account" : userName) for \(relyingPartyID)" }

    private enum CodingKeys: String, CodingKey {
        case id, relyingPartyID = "rp_id", userHandle = "user_handle", userName = "user_name", userDisplayName = "user_display_name"
        case algorithm, privateKey = "private_key", signCount = "sign_count", isDiscoverable = "discoverable", created
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func bytes(_ key: CodingKeys) throws -> Data {
            guard let data = Base64URL.decode(try container.decode(String.self, forKey: key)) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.rawValue) is not base64url")
            }
            return data
        }
        id = try bytes(.id)
        relyingPartyID = try container.decode(String.self, forKey: .relyingPartyID)
        userHandle = try bytes(.userHandle)
        userName = try container.decodeIfPresent(String.self, forKey: .userName) ?? ""
        userDisplayName = try container.decodeIfPresent(String.self, forKey: .userDisplayName) ?? ""
        guard let algorithm = COSEAlgorithm(rawValue: try container.decode(Int.self, forKey: .algorithm)) else {
            throw DecodingError.dataCorruptedError(forKey: .algorithm, in: container, debugDescription: "algorithm is not -7 (ES256) or -8 (EdDSA)")
        }
        self.algorithm = algorithm
        privateKey = try bytes(.privateKey)
        signCount = try container.decode(UInt32.self, forKey: .signCount)
        isDiscoverable = try container.decode(Bool.self, forKey: .isDiscoverable)
        created = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .created))
        guard (try? publicKey) != nil else {
            throw DecodingError.dataCorruptedError(forKey: .privateKey, in: container, debugDescription: "private_key is not an \(algorithm) key")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Base64URL.encode(id), forKey: .id)
        try container.encode(relyingPartyID, forKey: .relyingPartyID)
        try container.encode(Base64URL.encode(userHandle), forKey: .userHandle)
        try container.encode(userName, forKey: .userName)
        try container.encode(userDisplayName, forKey: .userDisplayName)
        try container.encode(algorithm.rawValue, forKey: .algorithm)
        try container.encode(Base64URL.encode(privateKey), forKey: .privateKey)
        try container.encode(signCount, forKey: .signCount)
        try container.encode(isDiscoverable, forKey: .isDiscoverable)
        try container.encode(created.timeIntervalSince1970, forKey: .created)
    }
}
