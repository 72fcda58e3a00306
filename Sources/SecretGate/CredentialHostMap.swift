import Foundation
import WebAuthSupport

/// The `credential_hosts` of the configuration file: which saved sign-in's access token the git
/// and Docker helpers may hand to which site. A key is a site, a value a profile:
///
/// - `name` is that host over `https` on its default port (443); `name:port` on another port;
/// - `https://name[:port]` says the same with its scheme;
/// - `http://name[:port]` allows plain `http`, and only for a loopback host (`localhost`,
///   `127.0.0.0/8`, `[::1]`): a token sent in the clear to another host is a token given away.
///
/// No mapping serves nothing: a helper answers only the sites listed here.
public struct CredentialHostMap: Sendable, Hashable {
    /// One key of the mapping, parsed.
    public struct Site: Sendable, Hashable, CustomStringConvertible {
        /// `https` or `http`.
        public let scheme: String
        /// The host, lower case, an IPv6 literal without brackets.
        public let host: String
        /// The port, the scheme's default when the key gave none.
        public let port: Int

        /// The key as Docker's `list` names a server: `name`, `name:port`, or `http://name:port`.
        public var description: String {
            let shown = host.contains(":") ? "[\(host)]" : host
            let base = port == Self.defaultPort(scheme) ? shown : "\(shown):\(port)"
            return scheme == "https" ? base : "\(scheme)://\(base)"
        }

        static func defaultPort(_ scheme: String) -> Int { scheme == "http" ? 80 : 443 }
    }

    /// Why a `credential_hosts` entry cannot be used.
    public struct EntryError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The key as written.
        public let key: String
        /// What is wrong with it.
        public let problem: String

        public var description: String { "'\(key)' \(problem)" }
    }

    /// Site → profile, as parsed.
    public let profiles: [Site: String]

    /// Parses `mapping` (key → profile).
    /// - Throws: ``EntryError`` for the first key that is not a site, a key with plain `http`
    ///   to a host that is not loopback, or an empty profile.
    public init(_ mapping: [String: String]) throws(EntryError) {
        var profiles: [Site: String] = [:]
        for (key, profile) in mapping.sorted(by: { $0.key < $1.key }) {
            let site = try Self.site(key)
            guard !profile.isEmpty else { throw EntryError(key: key, problem: "has an empty profile") }
            profiles[site] = profile
        }
        self.profiles = profiles
    }

    /// What the mapping says of a site.
    public enum Answer: Sendable, Hashable {
        /// The profile whose token the site may receive.
        case profile(String)
        /// Why the site gets none.
        case refused(SecretRefusal.Reason)
    }

    /// Which profile's token `recipient` (a site) may receive, or why none.
    public func answer(for recipient: SecretRecipient) -> Answer {
        guard case .site(let scheme, let name, let port) = recipient else { return .refused(.wrongKindOfRecipient) }
        guard !profiles.isEmpty else { return .refused(.noCredentialHosts) }
        let host = SecretRecipient.bare(name)
        // A site that did not say its scheme (Docker's `name:port`) matches a key of either scheme.
        for scheme in scheme.map({ [$0] }) ?? ["https", "http"] {
            if let profile = profiles[Site(scheme: scheme, host: host, port: port ?? Site.defaultPort(scheme))] { return .profile(profile) }
        }
        return .refused(.siteNotMapped)
    }

    /// Parses one key.
    static func site(_ key: String) throws(EntryError) -> Site {
        let trimmed = key.trimmingCharacters(in: .whitespaces)
        var scheme = "https"
        var rest = Substring(trimmed)
        if let range = trimmed.range(of: "://") {
            scheme = trimmed[..<range.lowerBound].lowercased()
            rest = trimmed[range.upperBound...]
            if rest.hasSuffix("/") { rest = rest.dropLast() }
            guard scheme == "https" || scheme == "http" else {
                throw EntryError(key: key, problem: "has the scheme \(scheme); a credential goes over https (or http to a loopback host)")
            }
        }
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@"), !rest.contains("?"), !rest.contains("#"),
              let components = URLComponents(string: "\(scheme)://\(rest)"), let host = components.host, !host.isEmpty else {
            throw EntryError(key: key, problem: "is not a host; write it as name or name:port (e.g. registry.example.com), "
                + "or http://name:port for a loopback host, without user or path")
        }
        let bare = SecretRecipient.bare(host)
        if scheme == "http", !URIText.isLoopback(host: bare) {
            throw EntryError(key: key, problem: "would send a token over plain http to a host that is not this machine; "
                + "use https (write the key as \(rest))")
        }
        return Site(scheme: scheme, host: bare, port: components.port ?? Site.defaultPort(scheme))
    }
}
