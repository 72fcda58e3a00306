import Foundation
import OpenIDConnect
import SecretGate

/// What answers a page's WebAuthn requests once the client has checked them: the virtual
/// authenticator, or a security key through libfido2. Requests and answers are CTAP2's
/// (authenticatorMakeCredential, authenticatorGetAssertion), whatever carries them.
public protocol PasskeyAuthenticator: Sendable {
    /// Which kind it is, for `SecretGate`.
    var kind: PasskeyAuthenticatorKind { get }
    /// Whether it verifies the person itself (`isUserVerifyingPlatformAuthenticatorAvailable`).
    var isUserVerifying: Bool { get }
    /// Makes a credential.
    /// - Throws: ``AuthenticatorError``.
    func makeCredential(_ request: MakeCredentialRequest) async throws(AuthenticatorError) -> MadeCredential
    /// Signs in with a credential.
    /// - Throws: ``AuthenticatorError``.
    func getAssertion(_ request: GetAssertionRequest) async throws(AuthenticatorError) -> Assertion
}

/// authenticatorMakeCredential's parameters (CTAP 2.1 §6.1).
public struct MakeCredentialRequest: Sendable, Hashable {
    /// SHA-256 of the clientDataJSON.
    public var clientDataHash: Data
    /// The relying party ID (checked) and name.
    public var relyingPartyID: String
    /// The relying party's name.
    public var relyingPartyName: String
    /// The user handle, name and display name.
    public var userID: Data
    /// The account's name.
    public var userName: String
    /// The account's display name.
    public var userDisplayName: String
    /// The algorithms the relying party accepts, in its order; the authenticator takes the first it has.
    public var algorithms: [COSEAlgorithm]
    /// Credential IDs that must not exist on the authenticator.
    public var excludeCredentials: [Data]
    /// Whether the credential should be discoverable (resident).
    public var residentKey: CredentialCreationOptions.Requirement
    /// Whether the person must be verified.
    public var userVerification: CredentialCreationOptions.Requirement

    /// A request with every parameter given.
    public init(clientDataHash: Data, relyingPartyID: String, relyingPartyName: String, userID: Data, userName: String,
                userDisplayName: String, algorithms: [COSEAlgorithm], excludeCredentials: [Data] = [],
                residentKey: CredentialCreationOptions.Requirement = .discouraged,
                userVerification: CredentialCreationOptions.Requirement = .preferred) {
        (self.clientDataHash, self.relyingPartyID, self.relyingPartyName) = (clientDataHash, relyingPartyID, relyingPartyName)
        (self.userID, self.userName, self.userDisplayName) = (userID, userName, userDisplayName)
        (self.algorithms, self.excludeCredentials) = (algorithms, excludeCredentials)
        (self.residentKey, self.userVerification) = (residentKey, userVerification)
    }
}

/// A new credential: its attestation object (format `none`) and what the page's response shows of it.
public struct MadeCredential: Sendable, Hashable {
    /// The attestation object, CBOR `{fmt, attStmt, authData}`.
    public var attestationObject: Data
    /// The authenticator data inside it, with the credential's ID and public key.
    public var authenticatorData: AuthenticatorData
    /// Whether the credential is discoverable, if the authenticator says (`credProps.rk`).
    public var isDiscoverable: Bool?

    /// A credential with its attestation object and authenticator data.
    public init(attestationObject: Data, authenticatorData: AuthenticatorData, isDiscoverable: Bool?) {
        (self.attestationObject, self.authenticatorData, self.isDiscoverable) = (attestationObject, authenticatorData, isDiscoverable)
    }

    /// The attestation object of format `none` for `authenticatorData`.
    public static func noneAttestation(_ authenticatorData: AuthenticatorData) -> Data {
        CBORValue.map([("fmt", "none"), ("attStmt", .map([])), ("authData", .bytes(authenticatorData.encoded))]).encoded
    }
}

/// authenticatorGetAssertion's parameters (CTAP 2.1 §6.2).
public struct GetAssertionRequest: Sendable, Hashable {
    /// The relying party ID (checked).
    public var relyingPartyID: String
    /// SHA-256 of the clientDataJSON.
    public var clientDataHash: Data
    /// The credentials that may answer; empty: a discoverable one of the relying party.
    public var allowCredentials: [Data]
    /// Whether the person must be verified.
    public var userVerification: CredentialCreationOptions.Requirement

    /// A request with every parameter given.
    public init(relyingPartyID: String, clientDataHash: Data, allowCredentials: [Data] = [],
                userVerification: CredentialCreationOptions.Requirement = .preferred) {
        (self.relyingPartyID, self.clientDataHash, self.allowCredentials, self.userVerification) =
            (relyingPartyID, clientDataHash, allowCredentials, userVerification)
    }
}

/// An assertion: which credential signed, its authenticator data, the signature, and the user
/// handle a discoverable credential carries.
public struct Assertion: Sendable, Hashable {
    /// The credential's ID.
    public var credentialID: Data
    /// The authenticator data (no attested credential).
    public var authenticatorData: Data
    /// The signature over authenticator data ‖ clientDataHash.
    public var signature: Data
    /// The user handle, for a discoverable credential.
    public var userHandle: Data?

    /// An assertion of its parts.
    public init(credentialID: Data, authenticatorData: Data, signature: Data, userHandle: Data?) {
        (self.credentialID, self.authenticatorData, self.signature, self.userHandle) = (credentialID, authenticatorData, signature, userHandle)
    }
}
