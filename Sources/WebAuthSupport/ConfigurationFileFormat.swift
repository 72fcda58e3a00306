import Foundation

/// The format of webauth's configuration file (`config.json`): its keys, those of the route, and how
/// a property list is told from JSON. The file's reader checks it, and `webauth`'s shortcut reads
/// it to know whether the file may change a token command's answer.
package enum ConfigurationFileFormat {
    /// Every key the file may hold (each also in camelCase, at the top or under `credentials`).
    package static let all = ["issuer", "client_id", "client_secret", "redirect_uri", "authorization_endpoint", "token_endpoint", "jwks_uri",
                              "allow_insecure_http", "scopes", "scope", "parameters", "device_authorization_endpoint", "store",
                              "credential_hosts", "language", "proxy", "no_proxy", "ca_file",
                              "client_certificate", "client_certificate_key", "negotiate_sites",
                              "private_key_file", "private_key_id", "private_key_algorithm", "par", "dpop",
                              "token_endpoint_auth_method", "id_token_signed_response_alg"]

    /// The keys that change how a request reaches the provider: the proxy, the CA file, the client certificate.
    package static let route: Set<String> = ["proxy", "no_proxy", "ca_file", "client_certificate", "client_certificate_key"]

    /// `key` in snake_case (`caFile` is `ca_file`), as the file's keys are compared.
    package static func snakeCase(_ key: String) -> String {
        key.reduce(into: "") { snake, character in snake += character.isUppercase ? "_" + character.lowercased() : String(character) }
    }

    /// Whether `data` is read as a property list (binary or XML) rather than JSON.
    package static func isPropertyList(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(64), as: UTF8.self)
        return data.starts(with: Data("bplist".utf8)) || head.contains("<?xml") || head.contains("<plist")
    }
}
