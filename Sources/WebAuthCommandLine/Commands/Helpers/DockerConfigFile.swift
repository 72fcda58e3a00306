import Foundation
import OpenIDConnect

/// Docker's own configuration file (`$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`),
/// read for what only it knows: which servers are registries that Docker sends to a credential
/// helper. `credential_hosts` is shared with git, so its keys alone cannot tell a registry from a
/// git host.
struct DockerConfigFile {
    /// Where it was read from.
    let path: String
    /// `credsStore`: the helper Docker asks for every registry that has none of its own.
    let credentialStore: String?
    /// `credHelpers`: registry → the helper Docker asks for it.
    let credentialHelpers: [String: String]
    /// The registries of `auths`: with a `credsStore`, Docker lists there each registry whose
    /// credential is in the store (its entry empty).
    let authenticatedRegistries: Set<String>

    /// The file `environment` names; an empty one when there is none.
    /// - Throws: ``CommandFailure`` (usage) when it cannot be read, is not JSON, or its keys do not have Docker's types.
    init(environment: [String: String]) throws(CommandFailure) {
        let folder = environment["DOCKER_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".docker").path
        let path = URL(fileURLWithPath: folder).appendingPathComponent("config.json").path
        self.path = path
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            (credentialStore, credentialHelpers, authenticatedRegistries) = (nil, [:], [])
            return
        } catch {
            throw CommandFailure(.usage, "Docker's configuration \(path) cannot be read: \(error.localizedDescription)")
        }
        let json: JSONValue
        do { json = try JSONValue(parsing: text) } catch { throw CommandFailure(.usage, "Docker's configuration \(path) is not JSON: \(error)") }
        guard case .object = json else { throw CommandFailure(.usage, "Docker's configuration \(path) is not a JSON object") }
        var helpers: [String: String] = [:]
        for (registry, helper) in try Self.object("credHelpers", of: json, path) {
            guard let name = helper.stringValue else { throw CommandFailure(.usage, "Docker's configuration \(path): credHelpers' \(registry) is not a string") }
            helpers[registry] = name
        }
        switch json["credsStore"] {
        case nil, .null?: credentialStore = nil
        case .string(let name)?: credentialStore = name
        default: throw CommandFailure(.usage, "Docker's configuration \(path): credsStore is not a string")
        }
        credentialHelpers = helpers
        authenticatedRegistries = Set(try Self.object("auths", of: json, path).keys)
    }

    /// The object `json` holds at `key` (none: empty).
    private static func object(_ key: String, of json: JSONValue, _ path: String) throws(CommandFailure) -> [String: JSONValue] {
        switch json[key] {
        case nil, .null?: return [:]
        case .object(let entries)?: return entries
        default: throw CommandFailure(.usage, "Docker's configuration \(path): \(key) is not an object")
        }
    }

    /// The servers Docker sends to the helper `helper` (`docker-credential-HELPER`), as Docker
    /// names them: the registries `credHelpers` gives it, and, when it is the `credsStore`, those
    /// `auths` lists that have no helper of their own.
    func registries(sentTo helper: String) -> Set<String> {
        var servers = Set(credentialHelpers.filter { $0.value == helper }.keys)
        if credentialStore == helper { servers.formUnion(authenticatedRegistries.filter { credentialHelpers[$0] == nil }) }
        return servers
    }
}
