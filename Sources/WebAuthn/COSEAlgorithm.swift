/// A COSE signature algorithm (RFC 9053) a page may ask for in `pubKeyCredParams`, by its
/// registered number. The virtual authenticator makes credentials of the first two.
public enum COSEAlgorithm: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ECDSA with SHA-256 on P-256 (the one every authenticator has).
    case es256 = -7
    /// EdDSA (Ed25519).
    case edDSA = -8

    /// `ES256` or `EdDSA`, as scripts and messages spell them.
    public var description: String {
        switch self {
        case .es256: "ES256"
        case .edDSA: "EdDSA"
        }
    }

    /// The algorithm spelt `name` (`ES256`, `EdDSA`, any case).
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.description.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }
}
