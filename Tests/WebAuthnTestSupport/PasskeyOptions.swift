import Foundation
import OpenIDConnect
import WebAuthn

/// What a page at `https://login.example.com` asks of a passkey client: the options of its
/// `navigator.credentials.create` and `get` calls, for the tests of the WebAuthn client and of the
/// security keys behind it.
public enum PasskeyOptions {
    /// The page's origin.
    public static let origin = WebAuthnOrigin(url: "https://login.example.com/authorize")!

    /// `create` options: a credential for relying party `rpID` with `algorithms` (COSE numbers),
    /// for user `userID`, excluding the credentials `exclude`; challenge 32 × 0x01.
    public static func creation(rpID: String? = "example.com", algorithms: [Int] = [-7], userID: String = "AQID", exclude: [String] = [],
                                residentKey: String = "preferred", userVerification: String = "preferred") -> JSONValue {
        var rp: [String: JSONValue] = ["name": .string("Example")]
        if let rpID { rp["id"] = .string(rpID) }
        return .object([
            "rp": .object(rp), "challenge": .string(Base64URL.encode(Data(repeating: 1, count: 32))),
            "user": .object(["id": .string(userID), "name": .string("alice"), "displayName": .string("Alice")]),
            "pubKeyCredParams": .array(algorithms.map { .object(["type": .string("public-key"), "alg": .number(Double($0))]) }),
            "excludeCredentials": .array(exclude.map { .object(["type": .string("public-key"), "id": .string($0)]) }),
            "authenticatorSelection": .object(["residentKey": .string(residentKey), "userVerification": .string(userVerification)]),
            "extensions": .object(["credProps": .bool(true)]),
        ])
    }

    /// `get` options for relying party `rpID` with `challenge`, allowing the credentials `allow` (any when empty).
    public static func request(rpID: String? = "example.com", challenge: Data = Data(repeating: 2, count: 32), allow: [String] = []) -> JSONValue {
        var options: [String: JSONValue] = ["challenge": .string(Base64URL.encode(challenge)),
                                            "allowCredentials": .array(allow.map { .object(["type": .string("public-key"), "id": .string($0)]) })]
        if let rpID { options["rpId"] = .string(rpID) }
        return .object(options)
    }
}
