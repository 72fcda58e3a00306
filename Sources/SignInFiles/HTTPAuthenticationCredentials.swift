import Foundation

/// The user name and password a login script gives a page that asks for HTTP authentication
/// (`401` with `WWW-Authenticate: Basic` or `Digest`), as its top-level `http_auth`:
/// ```yaml
/// http_auth:
///   username: alice
///   password: {env: ALICE_PASSWORD}
/// ```
/// The password comes from the environment, a file or a command, never from the script.
public struct HTTPAuthenticationCredentials: Sendable, Hashable, Decodable {
    /// The user name, written in the script.
    public var username: String
    /// Where the password comes from: ``LoginValue/environment(_:)``, ``LoginValue/file(_:)`` or
    /// ``LoginValue/command(_:passing:)`` (directly, or through a ``LoginValue/variable(_:)``); any other source is not used (a page that asks then
    /// fails the session as if there were no credentials).
    public var password: LoginValue

    /// Credentials of `username` with the password read from `password` when the script starts.
    public init(username: String, password: LoginValue) {
        self.username = username
        self.password = password
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case username, password }
    private enum PasswordKeys: String, CodingKey, CaseIterable { case env, file, command, variable = "var" }

    /// Reads `{username: NAME, password: {env: VAR} | {file: PATH} | {command: CMD} | {var: NAME}}`
    /// (`var`: the batch entry's value of that name, which must be a source too).
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        username = try container.decode(String.self, forKey: .username)
        let source = try container.nestedContainer(keyedBy: PasswordKeys.self, forKey: .password)
        guard source.allKeys.count == 1, let key = source.allKeys.first else {
            throw DecodingError.dataCorruptedError(forKey: .password, in: container,
                                                   debugDescription: "password needs exactly one of env, file, command, var (never a literal)")
        }
        let text = try source.decode(String.self, forKey: key)
        password = switch key {
        case .env: .environment(text)
        case .file: .file(text)
        case .command: .command(text)
        case .variable: .variable(text)
        }
    }
}
