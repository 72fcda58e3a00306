import Foundation
import WebAuthSupport

/// The configuration file the commands without `--config` read (`$XDG_CONFIG_HOME/webauth/config.json`,
/// an absolute path, else `~/.config/webauth/config.json`), as far as the shortcut needs it: the
/// token commands check the route it names before they use even a fresh token, and refuse a file
/// they cannot read.
enum DefaultConfiguration {
    /// Whether the file leaves a token command's answer as the saved sign-in gives it: there is no
    /// file, or a JSON object (keys at the top or under `credentials`) whose keys the commands all
    /// know and none of which names a route. A property list, or a file in doubt, does not.
    static func leavesTokensAlone(_ environment: [String: String]) -> Bool {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? environment["HOME"].map { $0 + "/.config" }
        guard let base else { return false }
        let path = base + "/webauth/config.json"
        guard FileManager.default.fileExists(atPath: path) else { return true }
        guard let data = FileManager.default.contents(atPath: path), !ConfigurationFileFormat.isPropertyList(data),
              let top = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return false }
        let keys = Array(top.keys) + ((top["credentials"] as? [String: Any]).map { Array($0.keys) } ?? [])
        return keys.allSatisfy { key in
            let name = ConfigurationFileFormat.snakeCase(key)
            return key == "credentials" || (ConfigurationFileFormat.all.contains(name) && !ConfigurationFileFormat.route.contains(name))
        }
    }

}
