import Foundation
import OpenIDConnect
import SecretGate

/// Where a login script may type a secret (a value from the environment, a file, a command or
/// an outbox): only into a page of the provider's own hosts, and only over `https` or to a
/// loopback host. A phishing page the provider's login redirects to, or a page downgraded to
/// plain `http`, gets nothing.
struct SecretDestination: Sendable, Hashable {
    /// The rule, as for every other secret: `SecretGate` with the page hosts below.
    let gate: SecretGate
    /// The lower-case host names secrets may go to.
    var hosts: Set<String> { gate.pageHosts }

    /// The host of `providerURL` (the authorization request the session started with) and the
    /// script's own allowlist.
    init(providerURL: URL, allowlist: Set<String>) {
        gate = SecretGate(providerURL: providerURL, secretHosts: allowlist)
    }

    /// Why a page at `url` may not receive a secret, or `nil` when it may.
    func refusal(for url: String?) -> String? {
        guard let url, let site = SecretRecipient.site(of: url) else { return "the page has no address" }
        do { try gate.check(.typedValue, to: site) } catch { return "\(error)" }
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
}
