import Crypto
import Foundation

/// The authenticator data (WebAuthn §6.1): the hash of the relying party ID, the flags, the
/// signature counter, and at registration the new credential. Assertions sign it with the hash
/// of the clientDataJSON.
public struct AuthenticatorData: Sendable, Hashable {
    /// The flags byte.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// UP: a person was present (touched the key, or the script says so).
        public static let userPresent = Flags(rawValue: 0x01)
        /// UV: the person was verified (PIN, biometrics).
        public static let userVerified = Flags(rawValue: 0x04)
        /// BE: the credential may be backed up (synced).
        public static let backupEligible = Flags(rawValue: 0x08)
        /// BS: the credential is backed up.
        public static let backedUp = Flags(rawValue: 0x10)
        /// AT: attested credential data follows.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED: extensions follow.
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// A new credential, as registration's authenticator data carries it.
    public struct AttestedCredential: Sendable, Hashable {
        /// The authenticator model (all zero for the virtual authenticator, as attestation `none` allows).
        public var aaguid: Data
        /// The credential ID.
        public var credentialID: Data
        /// The credential's public key.
        public var publicKey: COSEKey

        /// A credential with `credentialID` and `publicKey`.
        public init(aaguid: Data = Data(count: 16), credentialID: Data, publicKey: COSEKey) {
            (self.aaguid, self.credentialID, self.publicKey) = (aaguid, credentialID, publicKey)
        }
    }

    /// SHA-256 of the relying party ID.
    public var relyingPartyIDHash: Data
    /// The flags.
    public var flags: Flags
    /// The signature counter.
    public var signCount: UInt32
    /// The new credential (registration only).
    public var attestedCredential: AttestedCredential?
    /// The extension outputs, a CBOR map, if any.
    public var extensions: CBORValue?

    /// Authenticator data for `relyingPartyID`.
    public init(relyingPartyID: String, flags: Flags, signCount: UInt32, attestedCredential: AttestedCredential? = nil) {
        self.relyingPartyIDHash = Data(SHA256.hash(data: Data(relyingPartyID.utf8)))
        self.flags = flags.union(attestedCredential == nil ? [] : .attestedCredentialData)
        self.signCount = signCount
        self.attestedCredential = attestedCredential
    }

    /// The bytes: rpIdHash ‖ flags ‖ signCount (big-endian) ‖ attested credential ‖ extensions.
    public var encoded: Data {
        var output = relyingPartyIDHash
        output.append(flags.rawValue)
        output.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: signCount >> $0) })
        if let credential = attestedCredential {
            output.append(credential.aaguid)
            output.append(contentsOf: [UInt8(credential.credentialID.count >> 8), UInt8(credential.credentialID.count & 0xFF)])
            output.append(credential.credentialID)
            output.append(credential.publicKey.cbor.encoded)
        }
        if let extensions { output.append(extensions.encoded) }
        return output
    }

    /// Reads authenticator data from a page, an authenticator or a relying party's store.
    /// - Throws: ``WebAuthnFormatError``.
    public init(decoding data: Data) throws(WebAuthnFormatError) {
        let bytes = Data(data)  // indices from 0
        guard bytes.count >= 37 else { throw .authenticatorData("\(bytes.count) bytes, fewer than the 37 every one has") }
        relyingPartyIDHash = bytes.prefix(32)
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var rest = bytes.dropFirst(37)
        if flags.contains(.attestedCredentialData) {
            guard rest.count >= 18 else { throw .authenticatorData("the attested credential is cut short") }
            let aaguid = Data(rest.prefix(16))
            let length = Int(rest[rest.startIndex + 16]) << 8 | Int(rest[rest.startIndex + 17])
            rest = rest.dropFirst(18)
            guard length <= 1023, rest.count >= length else { throw .authenticatorData("a credential ID of \(length) bytes") }
            let credentialID = Data(rest.prefix(length))
            rest = rest.dropFirst(length)
            let key: (value: CBORValue, length: Int)
            do { key = try CBORDecoder.decodePrefix(Data(rest)) } catch { throw .cbor(error) }
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: try COSEKey(cbor: key.value))
            rest = rest.dropFirst(key.length)
        }
        if flags.contains(.extensionData) {
            do { extensions = try CBORDecoder.decode(Data(rest)) } catch { throw .cbor(error) }
            guard extensions?.mapValue != nil else { throw .authenticatorData("extensions that are not a map") }
        } else if !rest.isEmpty {
            throw .authenticatorData("\(rest.count) bytes after the last field")
        }
    }
}
