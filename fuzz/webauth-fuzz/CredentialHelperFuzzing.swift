import Foundation
import OpenIDConnect
import SecretGate

/// The credential helpers' inputs: git's `key=value` request and Docker's server URL
/// on stdin, the `credential_hosts` mapping, and the gate's answer for what they name.
enum CredentialHelperFuzzing {
    /// A mapping every request is asked of: https, another port, and loopback http.
    static let gate = SecretGate(credentialHosts: try! CredentialHostMap(["git.example.com": "work", "registry.example.com:5000": "ci",
                                                                       "http://localhost:8080": "dev"]))

    /// The bytes as git's request and as Docker's server URL, each site asked of ``gate``, and
    /// the password git names checked as a token would be.
    static func requests(_ data: Data) {
        let requests = [CredentialHelperRequest(git: data), CredentialHelperRequest(dockerServerURL: String(decoding: data, as: UTF8.self))]
        for request in requests.compactMap({ $0 }) {
            _ = try? gate.tokenProfile(for: request.site)
            _ = try? gate.tokenProfile(for: request.site, only: "work")
            _ = request.site.description + request.site.hostAndPort
            if let password = request.password { _ = TokenText.verdict(password) }
        }
    }

    /// Each line `key profile` a mapping entry; the map, if it parses, asked for each key as a site.
    static func hostMap(_ text: String) {
        var mapping: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard let key = parts.first else { continue }  // a line of spaces
            mapping[String(key)] = parts.count > 1 ? String(parts[1]) : ""
        }
        guard let map = try? CredentialHostMap(mapping) else { return }
        let gate = SecretGate(credentialHosts: map)
        for site in map.profiles.keys {
            _ = try? gate.tokenProfile(for: CredentialHelperRequest(dockerServerURL: site.description)?.site ?? .process("none"))
        }
    }
}
