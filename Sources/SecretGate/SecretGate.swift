import Foundation

/// The one place that decides who may receive a secret: every path that hands one out (a value
/// typed into a page, an HTTP-authentication password, a client certificate, an access token
/// for a credential helper or a program, a variable in a child's environment) asks ``check(_:to:)``
/// with the recipient's scheme, host and port (or the process), and gets a typed
/// ``SecretRefusal`` when it may not.
///
/// The rules:
/// - a page secret (``ReleasedSecret/typedValue``, ``ReleasedSecret/httpAuthenticationPassword(realm:)``,
///   ``ReleasedSecret/clientCertificate``) goes to a site of ``pageHosts`` (the sign-in's own host
///   and a login script's `secret_hosts`), over `https` or to a loopback host, on any port;
/// - an access token goes to a site only as ``credentialHosts`` maps it to the token's profile
///   (no mapping: no site), to a program we start (the variable `webauth exec` was asked for),
///   and to an application on the bus only for the accounts ``grantedAccounts`` gives it (the
///   app that signed an account in, and those the person allowed);
/// - a variable of ours named in ``withheldVariables`` goes to no program;
/// - a passkey's signature (``ReleasedSecret/passkeySignature(relyingParty:authenticator:)``) goes
///   to a page whose origin (as the engine saw it commit) is `https` or on this machine and whose
///   host is the relying party or under it; the virtual authenticator's only when a login script
///   drives the session (``drivenByLoginScript``) and to a site of ``pageHosts``, so a page a
///   person works in never silently uses a software key, and a script's key signs for the
///   provider's hosts only;
/// - a security key's PIN goes to the security key only.
public struct SecretGate: Sendable, Hashable {
    /// Hosts that may receive page secrets, lower case, IPv6 literals without brackets.
    public let pageHosts: Set<String>
    /// Which site receives which profile's access token.
    public let credentialHosts: CredentialHostMap?
    /// Variables of ours that no program we start receives.
    public let withheldVariables: Set<String>
    /// The accounts (profiles) each application on the bus may receive tokens of, by its identity.
    public let grantedAccounts: [String: Set<String>]
    /// Whether a login script drives the session this gate guards (the virtual authenticator's condition).
    public let drivenByLoginScript: Bool

    /// A gate for page secrets going to `pageHosts`, tokens going where `credentialHosts` says
    /// and to the applications `grantedAccounts` names, and `withheldVariables` kept from programs
    /// (by default ``SecretVariables/known``).
    public init(pageHosts: some Sequence<String> = [], credentialHosts: CredentialHostMap? = nil,
                withheldVariables: Set<String> = SecretVariables.known, grantedAccounts: [String: Set<String>] = [:],
                drivenByLoginScript: Bool = false) {
        self.pageHosts = Set(pageHosts.map(SecretRecipient.bare))
        self.credentialHosts = credentialHosts
        self.withheldVariables = withheldVariables
        self.grantedAccounts = grantedAccounts
        self.drivenByLoginScript = drivenByLoginScript
    }

    /// A gate for a sign-in page: page secrets go to `providerURL`'s host and `secretHosts`;
    /// `drivenByLoginScript` when a login script drives it.
    public init(providerURL: URL, secretHosts: some Sequence<String>, drivenByLoginScript: Bool = false) {
        self.init(pageHosts: [providerURL.host].compactMap { $0 } + Array(secretHosts), drivenByLoginScript: drivenByLoginScript)
    }

    /// Lets `secret` go to `recipient`, or throws why not.
    public func check(_ secret: ReleasedSecret, to recipient: SecretRecipient) throws(SecretRefusal) {
        if let reason = refusal(of: secret, to: recipient) {
            throw SecretRefusal(secret: secret, recipient: recipient, reason: reason)
        }
    }

    /// The profile whose access token `site` may receive (a credential helper's answer): the one
    /// ``credentialHosts`` maps it to, and only `only` when given.
    /// - Throws: ``SecretRefusal`` as ``check(_:to:)`` for ``ReleasedSecret/accessToken(profile:)``.
    public func tokenProfile(for site: SecretRecipient, only: String? = nil) throws(SecretRefusal) -> String {
        let mapped: String? = if case .profile(let name) = credentialHosts?.answer(for: site) { name } else { nil }
        let profile = only ?? mapped ?? ""
        try check(.accessToken(profile: profile), to: site)
        return profile
    }

    private func refusal(of secret: ReleasedSecret, to recipient: SecretRecipient) -> SecretRefusal.Reason? {
        switch (secret, recipient) {
        case (.typedValue, .site), (.httpAuthenticationPassword, .site), (.clientCertificate, .site):
            guard recipient.isPrivateTransport else { return .notPrivate }
            guard let host = recipient.comparableHost, pageHosts.contains(host) else { return .hostNotAllowed(allowed: pageHosts.sorted()) }
            return nil
        case (.accessToken(let profile), .site(let scheme, _, _)):
            // A site that did not say its scheme (Docker) gets the scheme of the key it matches: https, or http to a loopback host.
            if scheme != nil, !recipient.isPrivateTransport { return .notPrivate }
            switch credentialHosts?.answer(for: recipient) ?? .refused(.noCredentialHosts) {
            case .profile(let mapped): return mapped == profile ? nil : .otherProfile(mapped)
            case .refused(let reason): return reason
            }
        case (.accessToken, .process):
            return nil
        case (.accessToken(let profile), .application(let app)):
            return grantedAccounts[app]?.contains(profile) == true ? nil : .notGranted
        case (.environmentVariable(let name), .process):
            return withheldVariables.contains(name) ? .withheldVariable : nil
        case (.passkeySignature(let relyingParty, let authenticator), .site):
            guard recipient.isPrivateTransport else { return .notPrivate }
            guard let host = recipient.comparableHost, host == relyingParty || host.hasSuffix("." + relyingParty) else {
                return .otherRelyingParty
            }
            guard authenticator == .virtual else { return nil }
            guard drivenByLoginScript else { return .noLoginScript }
            return pageHosts.contains(host) ? nil : .hostNotAllowed(allowed: pageHosts.sorted())
        case (.securityKeyPIN, .securityKey):
            return nil
        default:
            return .wrongKindOfRecipient
        }
    }

    /// The environment a program we start receives: `environment` without the variables this
    /// gate withholds, plus `adding` (the token variable `webauth exec` was asked for).
    public func environment(for program: String, from environment: [String: String], adding: [String: String] = [:]) -> [String: String] {
        var allowed = environment.filter { (try? check(.environmentVariable($0.key), to: .process(program))) != nil }
        allowed.merge(adding) { $1 }
        return allowed
    }
}
