import Crypto
import Foundation
import OpenIDConnect

/// The clientDataJSON (WebAuthn §5.8.1): what the browser, not the page, says about a request:
/// its type, the relying party's challenge, and the origin the engine saw. The authenticator
/// signs its SHA-256, so a signature made for one origin is worth nothing to another.
public struct CollectedClientData: Sendable, Hashable {
    /// `webauthn.create` (registration) or `webauthn.get` (sign-in).
    public enum Kind: String, Sendable, Hashable {
        /// Registration.
        case create = "webauthn.create"
        /// Sign-in.
        case get = "webauthn.get"
    }

    /// Registration or sign-in.
    public var type: Kind
    /// The relying party's challenge.
    public var challenge: Data
    /// The origin of the document that asked, serialised (`https://host[:port]`).
    public var origin: String
    /// Whether the document that asked was in a frame of another origin than the top one (the
    /// engine answers top-level documents only, so this is always false when it writes one).
    public var crossOrigin: Bool

    /// Client data for a request of `type` from `origin`.
    public init(type: Kind, challenge: Data, origin: String, crossOrigin: Bool = false) {
        (self.type, self.challenge, self.origin, self.crossOrigin) = (type, challenge, origin, crossOrigin)
    }

    /// The JSON in the order of WebAuthn's serialisation (§5.8.1.1), so a relying party's
    /// limited verification can read it: type, challenge, origin, crossOrigin.
    public var json: Data {
        let members = ["\"type\":" + JSONValue.string(type.rawValue).description,
                       "\"challenge\":" + JSONValue.string(Base64URL.encode(challenge)).description,
                       "\"origin\":" + JSONValue.string(origin).description,
                       "\"crossOrigin\":\(crossOrigin)"]
        return Data(("{" + members.joined(separator: ",") + "}").utf8)
    }

    /// The SHA-256 of ``json``: what the authenticator signs.
    public var hash: Data { Data(SHA256.hash(data: json)) }

    /// Reads a clientDataJSON, as a relying party does.
    /// - Throws: ``WebAuthnFormatError/clientData(_:)``.
    public init(json data: Data) throws(WebAuthnFormatError) {
        guard let value = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)), case .object = value else {
            throw .clientData("not a JSON object")
        }
        guard let type = value["type"]?.stringValue.flatMap(Kind.init(rawValue:)) else { throw .clientData("no type webauthn.create or webauthn.get") }
        guard let challenge = value["challenge"]?.stringValue.flatMap(Base64URL.decode) else { throw .clientData("no base64url challenge") }
        guard let origin = value["origin"]?.stringValue else { throw .clientData("no origin") }
        self.init(type: type, challenge: challenge, origin: origin, crossOrigin: value["crossOrigin"]?.boolValue ?? false)
    }
}
