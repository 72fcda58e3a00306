import Foundation
import WebAuthn

/// The passkeys the development provider knows, in memory: the credentials
/// registered on its account page, by credential ID, the challenges its pages were given (each
/// good once, for one purpose), and the account pages signed in to.
struct ProviderPasskeys: Sendable {
    /// A registered passkey: whose it is, and its key and count.
    struct Stored: Sendable {
        let subject: String
        var credential: RelyingPartyVerifier.Credential
    }

    /// What a challenge was given for.
    enum Purpose: Sendable, Hashable {
        /// Passkey sign-in on the login page (any account's discoverable passkey).
        case signIn
        /// The second factor of `subject`, after the password, on page `interaction`.
        case secondFactor(subject: String, interaction: String)
        /// Registering a passkey for `subject` on account page `interaction`.
        case registration(subject: String, interaction: String)
    }

    /// Registered passkeys by credential ID.
    var credentials: [Data: Stored] = [:]
    /// Challenges handed out and not yet used, with their purpose.
    var challenges: [Data: Purpose] = [:]
    /// Account pages signed in to: the subject, by interaction.
    var accounts: [String: String] = [:]

    /// A new challenge for `purpose`.
    mutating func challenge(for purpose: Purpose) -> Data {
        var generator = SystemRandomNumberGenerator()
        let challenge = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        challenges[challenge] = purpose
        return challenge
    }

    /// The IDs of `subject`'s passkeys.
    func credentialIDs(of subject: String) -> [Data] {
        credentials.filter { $0.value.subject == subject }.map(\.key).sorted { $0.lexicographicallyPrecedes($1) }
    }
}
