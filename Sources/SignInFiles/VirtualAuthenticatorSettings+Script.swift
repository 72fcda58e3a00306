import Foundation
import WebAuthn

/// A login script's top-level `passkey:`, the virtual authenticator that answers the page's
/// passkey and security-key requests while the script drives it:
/// ```yaml
/// passkey:
///   credentials_file: ~/.config/webauth/passkeys.json   # 0600; made by the first registration
///   user_verification: true       # UV flag, and isUserVerifyingPlatformAuthenticatorAvailable (default true)
///   user_presence: true           # false: every request fails, as nobody touched the key (default true)
///   algorithm: ES256              # or EdDSA; default: the page's first choice of the two
///   discoverable: true            # default: as the page asks (residentKey)
///   sign_count: increment         # or zero, as synced passkeys report (default increment)
///   user: alice                   # the account to use when several could answer (default: the newest)
/// ```
/// `passkey: {}` keeps the credentials in memory, for this run only.
extension VirtualAuthenticatorSettings {
    private enum Key: String, CodingKey, CaseIterable {
        case credentialsFile = "credentials_file", userPresence = "user_presence", userVerification = "user_verification"
        case algorithm, discoverable, signCount = "sign_count", user
    }

    /// Reads `passkey:`'s mapping; an unknown key is an error that names the closest known one.
    static func decode(from decoder: any Decoder) throws -> VirtualAuthenticatorSettings {
        let container = try decoder.container(keyedBy: Key.self)
        try decoder.rejectUnknownKeys(Key.allCases.map(\.rawValue))
        var settings = VirtualAuthenticatorSettings()
        settings.credentialsFile = try container.decodeIfPresent(String.self, forKey: .credentialsFile)
        if settings.credentialsFile?.isEmpty == true {
            throw DecodingError.dataCorruptedError(forKey: .credentialsFile, in: container, debugDescription: "credentials_file is empty")
        }
        settings.userPresence = try container.decodeIfPresent(Bool.self, forKey: .userPresence) ?? true
        settings.userVerification = try container.decodeIfPresent(Bool.self, forKey: .userVerification) ?? true
        if let name = try container.decodeIfPresent(String.self, forKey: .algorithm) {
            guard let algorithm = COSEAlgorithm(name: name) else {
                throw DecodingError.dataCorruptedError(forKey: .algorithm, in: container, debugDescription: "algorithm must be ES256 or EdDSA, not \(name)")
            }
            settings.algorithm = algorithm
        }
        settings.discoverable = try container.decodeIfPresent(Bool.self, forKey: .discoverable)
        if let count = try container.decodeIfPresent(String.self, forKey: .signCount) {
            guard let mode = SignCount(rawValue: count) else {
                throw DecodingError.dataCorruptedError(forKey: .signCount, in: container, debugDescription: "sign_count must be increment or zero, not \(count)")
            }
            settings.signCount = mode
        }
        settings.user = try container.decodeIfPresent(String.self, forKey: .user)
        return settings
    }
}
