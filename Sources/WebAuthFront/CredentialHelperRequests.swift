import Foundation
import SecretGate

/// git's `get`, as the shortcut answers it: `username=oauth2` and the token of the profile
/// `credential_hosts` maps the request's site to.
struct GitRequest {
    /// What git asked.
    let request: CredentialHelperRequest

    /// git's request in `input`; `nil` when it asks for nothing a helper answers.
    init?(_ input: Data) {
        guard let request = CredentialHelperRequest(git: input) else { return nil }
        self.request = request
    }

    /// The answer's lines, or `nil` to hand the request over.
    func answer(_ configuration: DefaultConfiguration, environment: [String: String], now: Date) -> String? {
        CredentialAnswer.token(for: request.site, configuration, environment: environment, now: now).map { "username=oauth2\npassword=\($0.token)" }
    }
}

/// Docker's `get`, as the shortcut answers it: the registry's server URL, `oauth2` and the token.
struct DockerRequest {
    /// The server URL as Docker wrote it, without surrounding white space.
    let serverURL: String
    /// What Docker asked.
    let request: CredentialHelperRequest

    /// Docker's request in `input`; `nil` when it names no registry a helper answers.
    init?(_ input: Data) {
        serverURL = String(decoding: input, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let request = CredentialHelperRequest(dockerServerURL: serverURL) else { return nil }
        self.request = request
    }

    /// The answer's JSON, or `nil` to hand the request over.
    func answer(_ configuration: DefaultConfiguration, environment: [String: String], now: Date) -> String? {
        CredentialAnswer.token(for: request.site, configuration, environment: environment, now: now).map { token in
            FreshToken.json(["ServerURL": serverURL, "Username": "oauth2", "Secret": token.token])
        }
    }
}

/// The token both helpers answer with.
enum CredentialAnswer {
    /// The fresh token of the profile `credential_hosts` maps `site` to, if the one policy lets it go there.
    static func token(for site: SecretRecipient, _ configuration: DefaultConfiguration, environment: [String: String], now: Date) -> FreshToken? {
        guard let hosts = configuration.credentialHosts,
              let profile = try? SecretGate(credentialHosts: hosts).tokenProfile(for: site) else { return nil }
        return TokenShortcut.freshToken(of: profile, minimumValidity: nil, environment: environment, now: now, configuration: configuration)
            .flatMap { TokenShortcut.released($0, of: profile, to: site) }
    }
}
