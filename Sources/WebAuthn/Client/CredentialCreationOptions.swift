import Foundation
import OpenIDConnect

/// A page's `navigator.credentials.create({publicKey})` options, as the page-side script passes
/// them (buffers as base64url): what WebAuthn §5.4 defines, read with the errors its IDL gives.
public struct CredentialCreationOptions: Sendable, Hashable {
    /// The relying party's ID as the page named it (nil: the origin's host) and its name.
    public var relyingPartyID: String?
    /// The relying party's name, for a person's prompt.
    public var relyingPartyName: String
    /// The user handle: 1 to 64 bytes that identify the account to the relying party.
    public var userID: Data
    /// The account's name (`alice@example.com`).
    public var userName: String
    /// The account's display name.
    public var userDisplayName: String
    /// The challenge.
    public var challenge: Data
    /// The algorithms the relying party accepts, in its order of preference (unknown ones left out).
    public var algorithms: [COSEAlgorithm]
    /// Whether the page listed any algorithm at all (an empty list means ES256 or RS256).
    public var listedAlgorithms: Bool
    /// The timeout the page asked for, in milliseconds.
    public var timeout: Int?
    /// Credentials the account already has: an authenticator that holds one must not make another.
    public var excludeCredentials: [Data]
    /// `residentKey`: `discouraged`, `preferred` or `required`.
    public var residentKey: Requirement
    /// `userVerification`.
    public var userVerification: Requirement
    /// Whether the page asked for the `credProps` extension.
    public var credentialProperties: Bool

    /// `discouraged`, `preferred` or `required`.
    public enum Requirement: String, Sendable, Hashable {
        /// Not wanted.
        case discouraged
        /// Wanted if the authenticator can.
        case preferred
        /// Needed.
        case required
    }

    /// Reads the options from `json`.
    /// - Throws: ``WebAuthnDOMError`` `TypeError` for a missing or malformed member, as the page's IDL would.
    public init(json: JSONValue) throws(WebAuthnDOMError) {
        let reader = OptionsReader(json)
        let rp = try reader.object("rp")
        relyingPartyID = try OptionsReader(rp).optionalString("id")
        relyingPartyName = try OptionsReader(rp).optionalString("name") ?? ""
        let user = OptionsReader(try reader.object("user"))
        userID = try user.buffer("id")
        guard (1...64).contains(userID.count) else { throw WebAuthnDOMError(.type, "user.id must be 1 to 64 bytes") }
        userName = try user.optionalString("name") ?? ""
        userDisplayName = try user.optionalString("displayName") ?? ""
        challenge = try reader.buffer("challenge")
        let parameters = try reader.array("pubKeyCredParams")
        listedAlgorithms = !parameters.isEmpty
        var algorithms: [COSEAlgorithm] = []
        for parameter in parameters {
            let item = OptionsReader(parameter)
            guard try item.optionalString("type") == "public-key", let alg = try item.optionalInteger("alg") else { continue }
            if let known = COSEAlgorithm(rawValue: alg) { algorithms.append(known) }
        }
        self.algorithms = algorithms
        timeout = try reader.optionalInteger("timeout")
        excludeCredentials = try reader.credentialIDs("excludeCredentials")
        let selection = OptionsReader(json["authenticatorSelection"] ?? .object([:]))
        let requireResidentKey = try selection.optionalBool("requireResidentKey") ?? false
        residentKey = try selection.requirement("residentKey") ?? (requireResidentKey ? .required : .discouraged)
        userVerification = try selection.requirement("userVerification") ?? .preferred
        credentialProperties = try OptionsReader(json["extensions"] ?? .object([:])).optionalBool("credProps") ?? false
    }
}

/// `navigator.credentials.get({publicKey})`'s options (WebAuthn §5.5).
public struct CredentialRequestOptions: Sendable, Hashable {
    /// The challenge.
    public var challenge: Data
    /// The timeout the page asked for, in milliseconds.
    public var timeout: Int?
    /// The relying party ID the page named (nil: the origin's host).
    public var relyingPartyID: String?
    /// The credentials that may answer (empty: any discoverable credential of the relying party).
    public var allowCredentials: [Data]
    /// `userVerification`.
    public var userVerification: CredentialCreationOptions.Requirement

    /// Reads the options from `json`.
    /// - Throws: ``WebAuthnDOMError`` `TypeError` for a missing or malformed member.
    public init(json: JSONValue) throws(WebAuthnDOMError) {
        let reader = OptionsReader(json)
        challenge = try reader.buffer("challenge")
        timeout = try reader.optionalInteger("timeout")
        relyingPartyID = try reader.optionalString("rpId")
        allowCredentials = try reader.credentialIDs("allowCredentials")
        userVerification = try reader.requirement("userVerification") ?? .preferred
    }
}

/// Reads the members of one options object, each failing as the page's IDL conversion would.
struct OptionsReader {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    func object(_ name: String) throws(WebAuthnDOMError) -> JSONValue {
        guard let member = value[name], case .object = member else { throw WebAuthnDOMError(.type, "\(name) is required") }
        return member
    }

    func array(_ name: String) throws(WebAuthnDOMError) -> [JSONValue] {
        guard case .array(let items) = value[name] ?? .null else { throw WebAuthnDOMError(.type, "\(name) is required") }
        guard items.count <= 64 else { throw WebAuthnDOMError(.type, "\(name) has more than 64 entries") }
        return items
    }

    func buffer(_ name: String) throws(WebAuthnDOMError) -> Data {
        guard let text = value[name]?.stringValue, text.utf8.count <= 8192, let data = Base64URL.decode(text) else {
            throw WebAuthnDOMError(.type, "\(name) must be a BufferSource")
        }
        return data
    }

    func optionalString(_ name: String) throws(WebAuthnDOMError) -> String? {
        switch value[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw WebAuthnDOMError(.type, "\(name) must be a string")
        }
    }

    func optionalInteger(_ name: String) throws(WebAuthnDOMError) -> Int? {
        switch value[name] {
        case nil, .null?: return nil
        case .number(let number)? where number.isFinite && abs(number) < 1e15: return Int(number)
        default: throw WebAuthnDOMError(.type, "\(name) must be a number")
        }
    }

    func optionalBool(_ name: String) throws(WebAuthnDOMError) -> Bool? {
        switch value[name] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw WebAuthnDOMError(.type, "\(name) must be a boolean")
        }
    }

    /// A requirement; an unknown value is ignored, as WebAuthn's enums in dictionaries are (nil).
    func requirement(_ name: String) throws(WebAuthnDOMError) -> CredentialCreationOptions.Requirement? {
        try optionalString(name).flatMap(CredentialCreationOptions.Requirement.init(rawValue:))
    }

    /// The IDs of a list of `{type: "public-key", id}` descriptors (other types left out).
    func credentialIDs(_ name: String) throws(WebAuthnDOMError) -> [Data] {
        guard value[name] != nil, value[name] != .null else { return [] }
        var ids: [Data] = []
        for item in try array(name) {
            let descriptor = OptionsReader(item)
            if try descriptor.optionalString("type") == "public-key" { ids.append(try descriptor.buffer("id")) }
        }
        return ids
    }
}
