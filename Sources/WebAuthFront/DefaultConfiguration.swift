import Foundation
import SecretGate
import WebAuthSupport

/// The configuration file the commands without `--config` read (`$XDG_CONFIG_HOME/webauth/config.json`,
/// an absolute path, else `~/.config/webauth/config.json`), as far as the shortcut needs it: the
/// token commands check the route it names before they use even a fresh token and refuse a file
/// they cannot read, and the credential helpers take `credential_hosts` from it.
struct DefaultConfiguration {
    /// The file's values, those under `credentials` over those at the top; none without a file.
    private let values: [String: Any]

    /// The file, when it leaves a token command's answer as the saved sign-in gives it: there is no
    /// file, or a JSON object (keys at the top or under `credentials`) whose keys the commands all
    /// know and none of which names a route. A property list, or a file in doubt, is `nil`.
    init?(_ environment: [String: String]) {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? environment["HOME"].map { $0 + "/.config" }
        guard let base else { return nil }
        let path = base + "/webauth/config.json"
        guard FileManager.default.fileExists(atPath: path) else {
            values = [:]
            return
        }
        guard let data = FileManager.default.contents(atPath: path), !ConfigurationFileFormat.isPropertyList(data),
              let top = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        let values = top.merging(top["credentials"] as? [String: Any] ?? [:]) { _, nested in nested }
        let known = values.keys.allSatisfy { key in
            let name = ConfigurationFileFormat.snakeCase(key)
            return key == "credentials" || (ConfigurationFileFormat.all.contains(name) && !ConfigurationFileFormat.route.contains(name))
        }
        guard known else { return nil }
        self.values = values
    }

    /// Whether the file (if any) says nothing `webauth login` reads: no key but `credential_hosts`.
    var namesOnlyHelperSettings: Bool {
        values.keys.allSatisfy { ["credentials", "credential_hosts", "credentialHosts"].contains($0) }
    }

    /// The sites `credential_hosts` maps to profiles; `nil` when it maps none, or is not what the
    /// helpers can use (they say why).
    var credentialHosts: CredentialHostMap? {
        guard let mapping = (values["credential_hosts"] ?? values["credentialHosts"]) as? [String: String], !mapping.isEmpty else { return nil }
        return try? CredentialHostMap(mapping)
    }
}
