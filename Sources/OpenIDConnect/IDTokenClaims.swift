import Foundation

/// The claims of an ID token (OpenID Connect Core §2 and §5.1): the standard ones by name, and
/// every claim, standard or not, as JSON through ``all`` or a subscript. It encodes as the JSON
/// object the token carried.
public struct IDTokenClaims: Sendable, Hashable, Codable {
    /// Every claim, as JSON values.
    public let all: [String: JSONValue]

    /// The claims of a token's payload.
    public init(_ all: [String: JSONValue]) { self.all = all }

    /// The claim called `name`, if the token has it.
    public subscript(name: String) -> JSONValue? { all[name] }

    /// `iss`: the provider that issued the token.
    public var issuer: String { all["iss"]?.stringValue ?? "" }
    /// `sub`: the user's identifier at the provider.
    public var subject: String { all["sub"]?.stringValue ?? "" }
    /// `aud`, as a list: the clients the token is for.
    public var audiences: [String] { Self.strings(all["aud"]) }
    /// `exp`: when the token expires.
    public var expiresAt: Date { Date(timeIntervalSince1970: all["exp"]?.numberValue ?? 0) }
    /// `iat`: when the token was issued.
    public var issuedAt: Date { Date(timeIntervalSince1970: all["iat"]?.numberValue ?? 0) }
    /// `auth_time`: when the person last authenticated, if the token says.
    public var authenticatedAt: Date? { all["auth_time"]?.numberValue.map { Date(timeIntervalSince1970: $0) } }
    /// `nonce`, if present.
    public var nonce: String? { all["nonce"]?.stringValue }
    /// `acr`: the authentication context class the sign-in satisfied, if the token says.
    public var authenticationContextClass: String? { all["acr"]?.stringValue }
    /// `amr`: the authentication methods used (`pwd`, `otp`, `hwk`...); empty if the token does not say.
    public var authenticationMethods: [String] { Self.strings(all["amr"]) }
    /// `azp`: the client the token was issued to, if named.
    public var authorizedParty: String? { all["azp"]?.stringValue }
    /// `sid`: the provider's session, for front- and back-channel logout.
    public var sessionID: String? { all["sid"]?.stringValue }
    /// `email`, if the token carries it.
    public var email: String? { all["email"]?.stringValue }
    /// `email_verified`, if the token carries it.
    public var emailVerified: Bool? { all["email_verified"]?.boolValue }
    /// `name`, if the token carries it.
    public var name: String? { all["name"]?.stringValue }
    /// `preferred_username`, if the token carries it.
    public var preferredUsername: String? { all["preferred_username"]?.stringValue }

    /// Reads the claims from a JSON object.
    public init(from decoder: any Decoder) throws { all = try [String: JSONValue](from: decoder) }
    /// Writes the claims as a JSON object.
    public func encode(to encoder: any Encoder) throws { try all.encode(to: encoder) }

    /// A claim that is one string or a list of strings, as a list.
    static func strings(_ value: JSONValue?) -> [String] {
        switch value {
        case .string(let one)?: [one]
        case .array(let many)?: many.compactMap(\.stringValue)
        default: []
        }
    }
}
