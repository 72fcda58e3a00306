/// Why ``SecretGate`` did not let a secret go: the secret (its kind, never its value), who asked
/// for it, and the rule it failed. Its description is one line a person can act on.
public struct SecretRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule a release failed.
    public enum Reason: Sendable, Hashable {
        /// The site is neither `https` nor `http` on a loopback host.
        case notPrivate
        /// The site's host is not one the secret may go to (those it may go to, sorted).
        case hostNotAllowed(allowed: [String])
        /// No `credential_hosts` mapping exists, so a helper serves no site at all.
        case noCredentialHosts
        /// `credential_hosts` maps no key to this scheme, host and port.
        case siteNotMapped
        /// `credential_hosts` maps the site to another profile than the helper's.
        case otherProfile(String)
        /// The variable is one of our secrets and no program we start receives it.
        case withheldVariable
        /// The token holds characters a header or a line protocol must not carry.
        case unsafeCharacters
        /// This kind of secret never goes to this kind of recipient.
        case wrongKindOfRecipient
        /// The person has not allowed the application to use the account (or denied it).
        case notGranted
        /// A passkey for one relying party, asked for by a page outside it.
        case otherRelyingParty
        /// The virtual authenticator, with no login script driving the session (a person's page).
        case noLoginScript
    }

    /// What would have been released.
    public let secret: ReleasedSecret
    /// Who asked for it.
    public let recipient: SecretRecipient
    /// The rule it failed.
    public let reason: Reason

    /// A refusal of `secret` to `recipient` for `reason`.
    public init(secret: ReleasedSecret, recipient: SecretRecipient, reason: Reason) {
        self.secret = secret
        self.recipient = recipient
        self.reason = reason
    }

    public var description: String {
        let why = switch reason {
        case .notPrivate: "it is not served over https"
        case .hostNotAllowed(let allowed):
            "it is not the provider's host (\(allowed.joined(separator: ", "))); list it in the login script's secret_hosts if it should be"
        case .noCredentialHosts: "the configuration file maps no host to a profile (credential_hosts)"
        case .siteNotMapped: "credential_hosts does not list it (a key is name, name:port, or http://name:port for a loopback host)"
        case .otherProfile(let profile): "credential_hosts maps it to profile '\(profile)'"
        case .withheldVariable: "it is one of webauth's secrets"
        case .unsafeCharacters: "the provider's token holds characters outside printable ASCII (%x20-7E)"
        case .wrongKindOfRecipient: "that kind of secret never goes there"
        case .notGranted: "the person has not allowed that app to use the account"
        case .otherRelyingParty: "the page is not on that relying party's domain"
        case .noLoginScript: "the virtual authenticator answers only when a login script drives the sign-in"
        }
        return "refusing to send \(secret) to \(recipient): \(why)"
    }
}
