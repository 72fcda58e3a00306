import Foundation
import OpenIDConnect
import WebAuthExitStatus
import WebAuthSession
import WebAuthCommandLine

/// How one entry of `webauth batch` ended, as the JSON it prints (docs/schemas/batch-result.schema.json):
/// `{"name", "status": "ok", "exit_status": 0, "subject", "expires_in"}` or
/// `{"name", "status": "error", "exit_status", "error", "message"}`, where `error` names the exit
/// status (`script_failed` for 7). Tokens only in the `--out` file, and only with `--tokens`.
struct BatchResult {
    /// The entry's name.
    let name: String
    /// The sign-in, or why it failed.
    let outcome: Result<SignInResult, CommandFailure>

    /// The exit status this entry alone would give.
    var status: ExitStatus {
        switch outcome {
        case .success: .success
        case .failure(let failure): failure.status
        }
    }

    /// The JSON, with the tokens when `tokens` is true.
    func json(tokens: Bool = false) -> JSONValue {
        var fields: [String: JSONValue] = ["name": .string(name), "exit_status": .number(Double(status.rawValue))]
        switch outcome {
        case .success(let result):
            fields["status"] = .string("ok")
            fields["subject"] = .string(result.idToken.subject)
            fields["expires_in"] = result.tokens?.expiresIn.map { .number(Double($0)) } ?? .null
            if tokens {
                fields["access_token"] = result.tokens.map { .string($0.accessToken) } ?? .null
                fields["refresh_token"] = result.tokens?.refreshToken.map(JSONValue.string) ?? .null
                fields["id_token"] = .string(result.idToken.rawValue)
            }
        case .failure(let failure):
            fields["status"] = .string("error")
            fields["error"] = .string(Self.kind(of: failure.status))
            fields["message"] = .string(failure.message)
        }
        return .object(fields)
    }

    /// The exit status's name in snake case: `scriptFailed` → `script_failed`.
    private static func kind(of status: ExitStatus) -> String {
        String(describing: status).reduce(into: "") { name, character in
            name += character.isUppercase ? "_" + character.lowercased() : String(character)
        }
    }
}
