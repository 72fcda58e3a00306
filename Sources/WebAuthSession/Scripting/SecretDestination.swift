import Foundation
import OpenIDConnect

/// Where a login script may type a secret (a value from the environment, a file, a command or
/// an outbox): only into a page of the provider's own hosts, and only over `https` or to a
/// loopback host. A phishing page the provider's login redirects to, or a page downgraded to
/// plain `http`, gets nothing.
struct SecretDestination: Sendable, Hashable {
    /// The lower-case host names secrets may go to.
    let hosts: Set<String>

    /// The host of `providerURL` (the authorization request the session started with) and the
    /// script's own allowlist.
    init(providerURL: URL, allowlist: Set<String>) {
        hosts = Set(([providerURL.host].compactMap { $0 } + allowlist).map { Self.bare($0.lowercased()) })
    }

    /// Why a page at `url` may not receive a secret, or `nil` when it may.
    func refusal(for url: String?) -> String? {
        guard let url, let components = URLComponents(string: url), let host = components.host?.lowercased() else {
            return "the page has no address"
        }
        let secure = components.scheme == "https" || (components.scheme == "http" && URINormalization.isLoopback(host: host))
        if !secure { return "\(Self.bare(host)) is not served over https" }
        if !hosts.contains(Self.bare(host)) {
            return "\(Self.bare(host)) is not the provider's host (\(hosts.sorted().joined(separator: ", "))); list it in the script's secret_hosts if it should be"
        }
        return nil
    }

    /// The same rule as JavaScript statements that throw in a page it refuses, checked in the
    /// same evaluation that types the value (the page cannot navigate in between).
    var javaScriptGuard: String {
        """
        const allowedHosts = \(JSONValue.array(hosts.sorted().map { .string($0) }));
        const host = location.hostname.toLowerCase().replace(/^\\[|\\]$/g, '');
        const loopback = host === 'localhost' || host === '::1' || /^127\\.\\d+\\.\\d+\\.\\d+$/.test(host);
        if (!(location.protocol === 'https:' || (location.protocol === 'http:' && loopback)) || !allowedHosts.includes(host)) {
            throw new Error('refusing to type a secret into ' + location.origin);
        }
        """
    }

    /// An IPv6 literal without its brackets, as `location.hostname` and Foundation disagree on them.
    private static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}
