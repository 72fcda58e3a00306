import Foundation
import OpenIDConnect

/// Where a ``LoginValue/totp(_:)`` value's secret is and how its codes are made: script syntax
/// `{fill: "#code", totp: {secret_env: TOTP_SECRET}}` or `totp: {secret_file: /path}`, with the
/// optional `algorithm: SHA1|SHA256|SHA512` (default SHA1), `digits: 6` (6 to 8, default 6) and
/// `period: 30` (seconds, default 30). The secret is base32, as in an `otpauth://` URI; it
/// comes from the environment or a file only, never from the script.
public struct TOTPSource: Sendable, Hashable, CustomStringConvertible, Decodable {
    /// Where the base32 secret is.
    public enum Secret: Sendable, Hashable {
        /// An environment variable of this process.
        case environment(String)
        /// A file's contents, without the final newline.
        case file(String)
    }

    /// Where the secret is.
    public var secret: Secret
    /// The HMAC hash function. Default: SHA1.
    public var algorithm: TimeBasedOneTimePassword.Algorithm
    /// Digits per code, 6 to 8. Default: 6.
    public var digits: Int
    /// Seconds per code. Default: 30.
    public var period: Int

    /// A source of codes from `secret`.
    public init(secret: Secret, algorithm: TimeBasedOneTimePassword.Algorithm = .sha1, digits: Int = 6, period: Int = 30) {
        (self.secret, self.algorithm, self.digits, self.period) = (secret, algorithm, digits, period)
    }

    private enum Key: String, CodingKey, CaseIterable {
        case secretEnv = "secret_env", secretFile = "secret_file", algorithm, digits, period
    }

    /// Reads `{secret_env: NAME}` or `{secret_file: PATH}` and the optional `algorithm`, `digits`, `period`.
    /// An unknown key is an error that names the closest known one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        try decoder.rejectUnknownKeys(Key.allCases.map(\.rawValue))
        let problem = { (message: String) in DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: message)) }
        switch (try container.decodeIfPresent(String.self, forKey: .secretEnv), try container.decodeIfPresent(String.self, forKey: .secretFile)) {
        case (let name?, nil): secret = .environment(name)
        case (nil, let path?): secret = .file(path)
        default: throw problem("totp needs exactly one of secret_env, secret_file (the secret never goes in the script)")
        }
        let name = try container.decodeIfPresent(String.self, forKey: .algorithm) ?? "SHA1"
        guard let algorithm = TimeBasedOneTimePassword.Algorithm(rawValue: name.uppercased()) else {
            throw problem("totp algorithm must be SHA1, SHA256 or SHA512, not \(name)")
        }
        self.algorithm = algorithm
        digits = try container.decodeIfPresent(Int.self, forKey: .digits) ?? 6
        guard (6...8).contains(digits) else { throw problem("totp digits must be 6, 7 or 8, not \(digits)") }
        period = try container.decodeIfPresent(Int.self, forKey: .period) ?? 30
        guard period > 0 else { throw problem("totp period must be a positive number of seconds, not \(period)") }
    }

    public var description: String {
        switch secret {
        case .environment(let name): "a TOTP code from $\(name)"
        case .file(let path): "a TOTP code from file \(path)"
        }
    }
}
