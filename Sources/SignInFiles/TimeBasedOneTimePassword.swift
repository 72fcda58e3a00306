import Crypto
import Foundation

/// A time-based one-time password generator (TOTP, RFC 6238): the six-to-eight-digit codes of
/// an authenticator app, from a shared secret and the time. Its description never shows the secret.
public struct TimeBasedOneTimePassword: Sendable, Hashable, CustomStringConvertible {
    /// The HMAC hash function (RFC 6238 §1.2).
    public enum Algorithm: String, Sendable, Hashable, CaseIterable {
        /// HMAC-SHA-1, the default of authenticator apps and `otpauth://` URIs.
        case sha1 = "SHA1"
        /// HMAC-SHA-256.
        case sha256 = "SHA256"
        /// HMAC-SHA-512.
        case sha512 = "SHA512"
    }

    private let secret: [UInt8]
    /// The hash function.
    public let algorithm: Algorithm
    /// How many digits a code has: 6 to 8.
    public let digits: Int
    /// How many seconds one code is valid (the time step X of RFC 6238).
    public let period: Int

    /// A generator for the raw `secret`.
    /// - Throws: ``TimeBasedOneTimePasswordError`` if `secret` is empty, `digits` is not 6 to 8
    ///   or `period` is not positive.
    public init(secret: [UInt8], algorithm: Algorithm = .sha1, digits: Int = 6, period: Int = 30) throws(TimeBasedOneTimePasswordError) {
        guard !secret.isEmpty else { throw .invalidSecret("the secret is empty") }
        guard (6...8).contains(digits) else { throw .invalidDigits(digits) }
        guard period > 0 else { throw .invalidPeriod(period) }
        (self.secret, self.algorithm, self.digits, self.period) = (secret, algorithm, digits, period)
    }

    /// A generator for a base32 secret, as in `otpauth://` URIs and under authenticator QR codes
    /// (RFC 4648 alphabet, either case; spaces, hyphens and `=` padding are ignored).
    /// - Throws: ``TimeBasedOneTimePasswordError``.
    public init(base32Secret: String, algorithm: Algorithm = .sha1, digits: Int = 6, period: Int = 30) throws(TimeBasedOneTimePasswordError) {
        try self.init(secret: try Self.decodeBase32(base32Secret), algorithm: algorithm, digits: digits, period: period)
    }

    /// The time step `date` falls in: whole periods since the Unix epoch (T of RFC 6238 §4.2).
    public func timeStep(at date: Date) -> UInt64 {
        UInt64(max(0, date.timeIntervalSince1970) / Double(period))
    }

    /// Seconds from `date` to the end of its time step (when its code stops being current).
    public func secondsLeft(at date: Date) -> Double {
        Double(timeStep(at: date) + 1) * Double(period) - date.timeIntervalSince1970
    }

    /// The code valid at `date`.
    public func code(at date: Date) -> String {
        code(forTimeStep: timeStep(at: date))
    }

    /// The code of time step `step` (HOTP, RFC 4226 §5.3, with the step as counter).
    public func code(forTimeStep step: UInt64) -> String {
        let counter = withUnsafeBytes(of: step.bigEndian) { Array($0) }
        let key = SymmetricKey(data: secret)
        let mac: [UInt8] = switch algorithm {
        case .sha1: Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: key))
        case .sha256: Array(HMAC<SHA256>.authenticationCode(for: counter, using: key))
        case .sha512: Array(HMAC<SHA512>.authenticationCode(for: counter, using: key))
        }
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary = mac[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
        let modulus = (0..<digits).reduce(UInt32(1)) { value, _ in value * 10 }
        let number = String(binary % modulus)
        return String(repeating: "0", count: digits - number.count) + number
    }

    /// A SHA-256 hash (hex) of the secret and the parameters: tells generators apart without keeping the secret.
    public var fingerprint: String {
        let parameters = "\(algorithm.rawValue)/\(digits)/\(period)/"
        return SHA256.hash(data: Array(parameters.utf8) + secret).map { String(format: "%02x", $0) }.joined()
    }

    public var description: String { "TOTP (\(algorithm.rawValue), \(digits) digits, \(period) s)" }

    private static func decodeBase32(_ text: String) throws(TimeBasedOneTimePasswordError) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased().utf8 where !" -=".utf8.contains(character) {
            guard let value = alphabet.firstIndex(of: character) else {
                throw .invalidSecret("the secret is not base32 (letters A-Z and digits 2-7)")
            }
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return bytes
    }
}

/// Why a ``TimeBasedOneTimePassword`` could not be made. Never contains the secret.
public enum TimeBasedOneTimePasswordError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The secret is empty or not base32; fix the secret the provider gave (the text under its QR code).
    case invalidSecret(String)
    /// Codes have 6, 7 or 8 digits.
    case invalidDigits(Int)
    /// The period is not a positive number of seconds.
    case invalidPeriod(Int)

    public var description: String {
        switch self {
        case .invalidSecret(let reason): "invalid TOTP secret: \(reason)"
        case .invalidDigits(let digits): "a TOTP code has 6, 7 or 8 digits, not \(digits)"
        case .invalidPeriod(let period): "a TOTP period is a positive number of seconds, not \(period)"
        }
    }
}
