import Foundation
import WebAuthSupport

/// An access token as the token commands print it, in each of their forms.
struct FreshToken: Equatable {
    /// The token itself.
    let token: String
    /// Its type, normally `Bearer`.
    let tokenType: String
    /// When it expires, if known.
    let expiresAt: Date?
    /// The scopes it carries, if known.
    let scopes: [String]?

    /// Whether it stays valid for more than `seconds` after `now`; a token without a known lifetime does.
    func isValid(for seconds: Int, after now: Date) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt.timeIntervalSince(now) > Double(seconds)
    }

    /// Whether it may be printed: only `%x20-7E` (RFC 6750's token characters and a few more), so it
    /// can end no line of a protocol or a shell (the token commands refuse any other, with an error).
    var isPrintable: Bool { !token.isEmpty && token.utf8.allSatisfy { (0x20...0x7E).contains($0) } }

    /// `webauth token`'s line in `format`.
    func line(_ format: ShortcutCommand.Format) -> String {
        switch format {
        case .raw: token
        case .header: "Authorization: Bearer \(token)"
        case .json:
            Self.json(TokenJSON(accessToken: token, expiresAt: expiresAt.map(UTCTimestamp.text), scope: scopes?.joined(separator: " "),
                                tokenType: tokenType))
        }
    }

    /// `webauth kubernetes-credential`'s ExecCredential of `apiVersion`.
    func execCredential(apiVersion: String) -> String {
        Self.json(ExecCredential(apiVersion: apiVersion, status: .init(token: token, expirationTimestamp: expiresAt.map(UTCTimestamp.text))))
    }

    /// `value` as the commands print JSON: keys sorted, slashes as they are.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// `token --format json` (docs/schemas/token.schema.json): each key present, `null` when unknown.
    private struct TokenJSON: Encodable {
        let accessToken: String
        let expiresAt: String?
        let scope: String?
        let tokenType: String

        enum CodingKeys: String, CodingKey { case accessToken = "access_token", expiresAt = "expires_at", scope, tokenType = "token_type" }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(accessToken, forKey: .accessToken)
            try container.encode(expiresAt, forKey: .expiresAt)
            try container.encode(scope, forKey: .scope)
            try container.encode(tokenType, forKey: .tokenType)
        }
    }

    /// client-go's ExecCredential: `status.expirationTimestamp` only when the lifetime is known.
    private struct ExecCredential: Encodable {
        struct Status: Encodable {
            let token: String
            let expirationTimestamp: String?
        }
        let apiVersion: String
        var kind = "ExecCredential"
        let status: Status
    }
}
