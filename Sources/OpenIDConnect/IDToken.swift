import Foundation

/// A validated ID token: the raw JWT and its claims.
public struct IDToken: Sendable, Hashable, Codable {
    /// The compact JWT, as received (a credential: never log it).
    public let rawValue: String
    /// All claims, as JSON values.
    public let claims: [String: JSONValue]

    /// `iss`.
    public var issuer: String { claims["iss"]?.stringValue ?? "" }
    /// `sub`: the user's identifier at the provider.
    public var subject: String { claims["sub"]?.stringValue ?? "" }
    /// `aud`, as a list.
    public var audiences: [String] { Self.audiences(claims["aud"]) }
    /// `exp`.
    public var expiresAt: Date { Date(timeIntervalSince1970: claims["exp"]?.numberValue ?? 0) }
    /// `iat`.
    public var issuedAt: Date { Date(timeIntervalSince1970: claims["iat"]?.numberValue ?? 0) }
    /// `nonce`, if present.
    public var nonce: String? { claims["nonce"]?.stringValue }

    static func audiences(_ value: JSONValue?) -> [String] {
        switch value {
        case .string(let one)?: [one]
        case .array(let many)?: many.compactMap(\.stringValue)
        default: []
        }
    }
}
