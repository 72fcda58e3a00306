import Foundation

/// What git's and Docker's credential-helper protocols ask for, read from their standard input:
/// the site a credential is for, and for git's `erase`, the password it says failed.
public struct CredentialHelperRequest: Sendable, Hashable {
    /// The site asked for.
    public let site: SecretRecipient
    /// The password git gives with `erase` (the credential that failed), if any.
    public let password: String?

    /// A request for `site`.
    public init(site: SecretRecipient, password: String? = nil) {
        self.site = site
        self.password = password
    }

    /// git's request: `key=value` lines up to a blank line (the last value of a repeated key
    /// counts). `nil` when it names no host, or a protocol other than `http` or `https` (a
    /// helper answers those only).
    public init?(git data: Data) {
        let attributes = Self.gitAttributes(data)
        guard let host = attributes["host"], !host.isEmpty else { return nil }
        let scheme = attributes["protocol"]?.lowercased() ?? "https"
        guard scheme == "https" || scheme == "http" else { return nil }
        // `host` is `name` or `name:port` (an IPv6 literal keeps its brackets).
        guard let components = URLComponents(string: "\(scheme)://\(host)"), let name = components.host, !name.isEmpty,
              components.path.isEmpty, components.user == nil else { return nil }
        site = .site(scheme: scheme, host: name, port: components.port)
        password = attributes["password"]
    }

    /// Docker's request: the server URL on standard input (`https://registry.example.com/v1/`,
    /// `registry.example.com:5000`). With no scheme, the scheme is left open, as Docker does
    /// not say it.
    public init?(dockerServerURL text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let hasScheme = trimmed.contains("://")
        guard let components = URLComponents(string: hasScheme ? trimmed : "https://" + trimmed),
              let name = components.host, !name.isEmpty, components.user == nil else { return nil }
        let scheme = hasScheme ? components.scheme?.lowercased() : nil
        guard scheme == nil || scheme == "https" || scheme == "http" else { return nil }
        site = .site(scheme: scheme, host: name, port: components.port)
        password = nil
    }

    /// git's `key=value` lines, up to a blank line.
    static func gitAttributes(_ data: Data) -> [String: String] {
        var attributes: [String: String] = [:]
        // `\r\n` is one Character in Swift: splitting on newlines takes it, `\n` and `\r` alike.
        for line in String(decoding: data, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.isEmpty { break }
            guard let equals = line.firstIndex(of: "=") else { continue }
            attributes[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return attributes
    }
}
