import Crypto
import Foundation
import OpenIDConnect

/// The relying party's checks (WebAuthn §7.1 registration, §7.2 authentication), for the
/// development provider and the tests: a response from a page is read and verified against the
/// challenge it was given, the origin it expects and the relying party ID, before any credential
/// is stored or any person signed in. Attestation statements are not verified (format `none` is
/// what the virtual authenticator and most passkeys send).
public struct RelyingPartyVerifier: Sendable, Hashable {
    /// The relying party ID.
    public let relyingPartyID: String
    /// The origins pages may sign in from (`http://localhost:PORT`).
    public let origins: Set<String>

    /// A verifier for `relyingPartyID` and pages of `origins`.
    public init(relyingPartyID: String, origins: Set<String>) {
        (self.relyingPartyID, self.origins) = (relyingPartyID, origins)
    }

    /// A registered credential, as the relying party keeps it.
    public struct Credential: Sendable, Hashable {
        /// The credential ID.
        public var id: Data
        /// Its public key.
        public var publicKey: COSEKey
        /// The last signature count seen.
        public var signCount: UInt32
        /// Whether the person was verified when it was registered.
        public var userVerified: Bool
    }

    /// A verified assertion: which credential signed, its new count, and the user handle it carried.
    public struct Verified: Sendable, Hashable {
        /// The credential that signed.
        public var credentialID: Data
        /// Its signature count now.
        public var signCount: UInt32
        /// Whether the person was verified.
        public var userVerified: Bool
        /// The user handle a discoverable credential returned.
        public var userHandle: Data?
    }

    /// Why a response was refused.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was wrong, for the provider's log and error page.
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Verifies a registration response (`PublicKeyCredential.toJSON()` of `create`) made for `challenge`.
    /// - Throws: ``Failure``.
    public func verifyRegistration(_ response: JSONValue, challenge: Data, requireUserVerification: Bool = false) throws(Failure) -> Credential {
        let clientDataJSON = try bytes(response["response"]?["clientDataJSON"], "clientDataJSON")
        try check(clientDataJSON, type: .create, challenge: challenge)
        let object: CBORValue
        do { object = try CBORDecoder.decode(try bytes(response["response"]?["attestationObject"], "attestationObject")) } catch {
            throw Failure("attestationObject: \(error)")
        }
        guard let authData = object["authData"]?.bytesValue, object["fmt"]?.textValue != nil else {
            throw Failure("attestationObject has no fmt or authData")
        }
        let data = try parsed(authData, requireUserVerification: requireUserVerification)
        guard let credential = data.attestedCredential else { throw Failure("the authenticator data holds no credential") }
        guard Base64URL.decode(response["rawId"]?.stringValue ?? "") == credential.credentialID else {
            throw Failure("rawId is not the credential's ID")
        }
        return Credential(id: credential.credentialID, publicKey: credential.publicKey, signCount: data.signCount,
                          userVerified: data.flags.contains(.userVerified))
    }

    /// Verifies an authentication response (`toJSON()` of `get`) made for `challenge` with
    /// `credential` (the one its `rawId` names, looked up by the caller).
    /// - Throws: ``Failure``; also for a signature count that went backwards (a cloned key).
    public func verifyAssertion(_ response: JSONValue, challenge: Data, credential: Credential,
                                requireUserVerification: Bool = false) throws(Failure) -> Verified {
        guard Base64URL.decode(response["rawId"]?.stringValue ?? "") == credential.id else { throw Failure("rawId is not the credential's ID") }
        let clientDataJSON = try bytes(response["response"]?["clientDataJSON"], "clientDataJSON")
        try check(clientDataJSON, type: .get, challenge: challenge)
        let authData = try bytes(response["response"]?["authenticatorData"], "authenticatorData")
        let data = try parsed(authData, requireUserVerification: requireUserVerification)
        let signature = try bytes(response["response"]?["signature"], "signature")
        guard credential.publicKey.verifies(signature, of: authData + Data(SHA256.hash(data: clientDataJSON))) else {
            throw Failure("the signature does not verify with the credential's key")
        }
        if data.signCount != 0 || credential.signCount != 0, data.signCount <= credential.signCount {
            throw Failure("the signature count \(data.signCount) is not above \(credential.signCount): the authenticator may be cloned")
        }
        let handle = response["response"]?["userHandle"]?.stringValue.flatMap(Base64URL.decode)
        return Verified(credentialID: credential.id, signCount: data.signCount, userVerified: data.flags.contains(.userVerified), userHandle: handle)
    }

    /// The credential ID a response names (to look its key up).
    public static func credentialID(of response: JSONValue) -> Data? {
        response["rawId"]?.stringValue.flatMap(Base64URL.decode)
    }

    private func check(_ json: Data, type: CollectedClientData.Kind, challenge: Data) throws(Failure) {
        let clientData: CollectedClientData
        do { clientData = try CollectedClientData(json: json) } catch { throw Failure("\(error)") }
        guard clientData.type == type else { throw Failure("clientDataJSON's type is \(clientData.type.rawValue), not \(type.rawValue)") }
        guard clientData.challenge == challenge else { throw Failure("clientDataJSON's challenge is not the one this page was given") }
        guard origins.contains(clientData.origin) else { throw Failure("clientDataJSON's origin \(clientData.origin) is not this provider's") }
        guard !clientData.crossOrigin else { throw Failure("the request came from a cross-origin frame") }
    }

    private func parsed(_ bytes: Data, requireUserVerification: Bool) throws(Failure) -> AuthenticatorData {
        let data: AuthenticatorData
        do { data = try AuthenticatorData(decoding: bytes) } catch { throw Failure("\(error)") }
        guard data.relyingPartyIDHash == Data(SHA256.hash(data: Data(relyingPartyID.utf8))) else {
            throw Failure("the authenticator data is for another relying party than \(relyingPartyID)")
        }
        guard data.flags.contains(.userPresent) else { throw Failure("the authenticator says nobody was present") }
        if requireUserVerification, !data.flags.contains(.userVerified) { throw Failure("the authenticator did not verify the user") }
        return data
    }

    private func bytes(_ value: JSONValue?, _ name: String) throws(Failure) -> Data {
        guard let data = value?.stringValue.flatMap(Base64URL.decode) else { throw Failure("\(name) is missing or not base64url") }
        return data
    }
}
