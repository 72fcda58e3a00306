import Foundation
import OpenIDConnect

/// Which saved sign-in serves which host, for the git and Docker credential helpers: the
/// `credential_hosts` object of the configuration file, host (`name` or `name:port`) to profile:
///
/// ```json
/// {"credential_hosts": {"registry.example.com": "work", "git.example.com": "default"}}
/// ```
///
/// The file is `--config`, else `$XDG_CONFIG_HOME/webauth/config.json` (`~/.config/webauth/config.json`)
/// when there is one. With no `credential_hosts`, the chosen profile serves every host.
struct CredentialHosts {
    /// Host (lowercased, with `:port` when the key has one) → profile; `nil` when the file maps none.
    let profiles: [String: String]?

    /// Reads the mapping from `config`, else from the default file if it exists.
    /// - Throws: ``CommandFailure`` (usage): the file cannot be read, or a host or profile is not well formed.
    init(config: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(CommandFailure) {
        guard let file = try ConfigurationFile.chosen(config, environment: environment) else { profiles = nil; return }
        let path = file.path
        guard let mapping = try file.parameters("credential_hosts") else { profiles = nil; return }
        var profiles: [String: String] = [:]
        for (host, profile) in mapping {
            guard !host.isEmpty, !host.contains("/"), !host.contains("@") else {
                throw CommandFailure(.usage, "credential_hosts in \(path): '\(host)' is not a host; write it as name or name:port "
                    + "(e.g. registry.example.com), without scheme, user or path")
            }
            guard !profile.isEmpty else { throw CommandFailure(.usage, "credential_hosts in \(path): the profile of \(host) is empty") }
            profiles[host.lowercased()] = profile
        }
        self.profiles = profiles
    }

    /// The profile that answers for `host` (`name` or `name:port`, as git and Docker give it), or
    /// `nil` when it is not ours: with a mapping, the host's profile (`name:port` first, then
    /// `name`), and only if it is `only` when a helper was given one; with none, `fallback`.
    func profile(for host: String, only: String?, fallback: String) -> String? {
        guard let profiles else { return fallback }
        let host = host.lowercased()
        let name = host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? host
        guard let profile = profiles[host] ?? profiles[name] else { return nil }
        return only == nil || only == profile ? profile : nil
    }

    /// The host of a Docker server URL: `https://registry.example.com/v1/`, `registry.example.com:5000`.
    static func host(ofServerURL text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed.contains("://") ? trimmed : "https://" + trimmed), let name = url.host, !name.isEmpty else { return nil }
        return url.port.map { "\(name):\($0)" } ?? name
    }
}
