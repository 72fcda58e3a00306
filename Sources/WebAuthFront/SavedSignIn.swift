#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The part of a saved sign-in that says whether its access token may be printed as it is, read
/// without the protocol stack where `webauth-tokens` reads it: its file
/// (`$XDG_STATE_HOME/webauthsession/NAME.json`), else, when there is none, the keyring's item. It
/// answers only when the whole command would print that token too: anything the full reader would
/// refuse, refresh, or ask a secret or a route for is `nil`, and that reader answers.
struct SavedSignIn {
    /// The saved access token, fresh or not.
    let token: FreshToken
    /// The provider's access-token lifetime in seconds, when it said.
    let lifetime: Int?

    /// The saved sign-in `profile`, if the shortcut may use it: the file `environment` names, else the keyring's.
    init?(profile: String, environment: [String: String]) {
        guard !profile.isEmpty, !profile.contains("/"), profile != ".", profile != "..", let folder = Self.folder(environment),
              let data = Self.file(folder + "/" + profile + ".json", in: folder) ?? KeyringItem.archive(of: profile, environment: environment),
              let archive = try? JSONDecoder().decode(Archive.self, from: data),
              archive.format == "webauthsession.auth-state", let state = archive.state.usable(environment) else { return nil }
        (token, lifetime) = state
    }

    /// The content of the file at `path`; `nil` when there is none. A file the store would refuse
    /// (its folder not this user's alone) or cannot read gives empty content, which no reader takes.
    private static func file(_ path: String, in folder: String) -> Data? {
        var info = stat()
        guard stat(folder, &info) == 0 else { return errno == ENOENT ? nil : Data() }
        guard info.st_uid == geteuid(), info.st_mode & (S_IWGRP | S_IWOTH) == 0 else { return Data() }
        guard access(path, F_OK) == 0 else { return errno == ENOENT ? nil : Data() }
        return (try? Data(contentsOf: URL(filePath: path))) ?? Data()
    }

    /// The file store's folder: `$XDG_STATE_HOME/webauthsession` (an absolute path), else `~/.local/state/webauthsession`.
    private static func folder(_ environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/webauthsession" }
        return environment["HOME"].map { $0 + "/.local/state/webauthsession" }
    }

    private struct Archive: Decodable {
        let format: String
        let state: State
    }

    /// A value that is there, whatever it holds.
    private struct Present: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    private struct State: Decodable {
        let version: Int
        let clientID: String
        let lastTokenResponse: TokenResponse?
        let lastAuthorizationResponse: AuthorizationResponse?
        let reauthenticationReason: Present?
        let registration: Present?
        let client: Client?

        enum CodingKeys: String, CodingKey {
            case version, clientID = "client_id", lastTokenResponse = "last_token_response"
            case lastAuthorizationResponse = "last_authorization_response", reauthenticationReason = "reauthentication_reason"
            case registration, client
        }

        /// The token and the lifetime, when the full reader would print this token as it is.
        func usable(_ environment: [String: String]) -> (FreshToken, Int?)? {
            guard (1...2).contains(version), reauthenticationReason == nil, registration == nil,
                  version == 1 || client.map({ $0.route == nil && $0.needsNothing(environment) }) ?? true,
                  let token = lastTokenResponse?.accessToken ?? lastAuthorizationResponse?.accessToken else { return nil }
            let expiresAt = lastTokenResponse.flatMap { response in response.expiresIn.map { response.receivedAt.addingTimeInterval(Double($0)) } }
            let scope = lastTokenResponse?.scope ?? lastAuthorizationResponse?.scope
            return (FreshToken(token: token, tokenType: lastTokenResponse?.tokenType ?? lastAuthorizationResponse?.tokenType ?? "Bearer",
                               expiresAt: expiresAt, scopes: scope.map { $0.split(separator: " ").map(String.init) }),
                    lastTokenResponse?.expiresIn)
        }
    }

    private struct TokenResponse: Decodable {
        let accessToken: String
        let tokenType: String
        let expiresIn: Int?
        let scope: String?
        let receivedAt: Date

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in", scope, receivedAt = "received_at"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            accessToken = try container.decode(String.self, forKey: .accessToken)
            tokenType = try container.decode(String.self, forKey: .tokenType)
            // As the full reader takes it: a number, or a number in a string.
            expiresIn = (try? container.decodeIfPresent(Int.self, forKey: .expiresIn))
                ?? (try? container.decodeIfPresent(String.self, forKey: .expiresIn)).flatMap { $0.flatMap { Int($0) } }
            scope = try container.decodeIfPresent(String.self, forKey: .scope)
            receivedAt = try container.decodeIfPresent(Date.self, forKey: .receivedAt) ?? Date()
        }
    }

    private struct AuthorizationResponse: Decodable {
        let accessToken: String?
        let tokenType: String?
        let scope: String?

        enum CodingKeys: String, CodingKey { case accessToken = "access_token", tokenType = "token_type", scope }
    }

    /// How the client authenticates: the full reader finds its secret before it uses the token.
    private struct Client: Decodable {
        let method: String?
        let secret: [String: String]?
        /// The proxy, CA file or client certificate the sign-in was made with: its requests need them.
        let route: Present?

        enum CodingKeys: String, CodingKey {
            case method = "token_endpoint_auth_method", secret = "client_secret_reference", route
        }

        /// Whether its secret is found with nothing read: a public client, or one whose secret is
        /// in the environment (`WEBAUTH_CLIENT_SECRET`, or the variable the sign-in named).
        func needsNothing(_ environment: [String: String]) -> Bool {
            let method = method ?? "client_secret_basic"
            guard ["none", "client_secret_basic", "client_secret_post", "client_secret_jwt"].contains(method) else { return false }
            if method == "none" || environment["WEBAUTH_CLIENT_SECRET"] != nil { return true }
            guard let variable = secret?["environment"] else { return false }
            return environment[variable] != nil
        }
    }
}
