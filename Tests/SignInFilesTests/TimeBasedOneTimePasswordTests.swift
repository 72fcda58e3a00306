import Foundation
import SignInFiles
import Testing

@Suite("TOTP (RFC 6238)")
struct TimeBasedOneTimePasswordTests {
    /// RFC 6238 Appendix B: the seeds are ASCII digits, 20, 32 and 64 bytes long.
    static let seeds: [TimeBasedOneTimePassword.Algorithm: String] = [
        .sha1: "12345678901234567890",
        .sha256: "12345678901234567890123456789012",
        .sha512: "1234567890123456789012345678901234567890123456789012345678901234",
    ]

    @Test("RFC 6238 Appendix B test vectors, 8 digits, 30 s", arguments: [
        (59, "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ])
    func rfcVectors(time: Int, sha1: String, sha256: String, sha512: String) throws {
        let date = Date(timeIntervalSince1970: TimeInterval(time))
        for (algorithm, expected) in [(TimeBasedOneTimePassword.Algorithm.sha1, sha1), (.sha256, sha256), (.sha512, sha512)] {
            let generator = try TimeBasedOneTimePassword(secret: Array(Self.seeds[algorithm]!.utf8), algorithm: algorithm, digits: 8)
            #expect(generator.code(at: date) == expected, "\(algorithm) at \(time)")
        }
    }

    @Test("a base32 secret as in otpauth:// URIs (either case, spaces and padding ignored) is the same secret")
    func base32() throws {
        // "12345678901234567890" in base32.
        let plain = try TimeBasedOneTimePassword(base32Secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", digits: 8)
        let loose = try TimeBasedOneTimePassword(base32Secret: "gezd gnbv gy3t qojq gezd gnbv gy3t qojq====", digits: 8)
        #expect(plain.code(at: Date(timeIntervalSince1970: 59)) == "94287082")
        #expect(loose == plain)
        #expect(plain.code(at: Date(timeIntervalSince1970: 59)).count == 8)
        #expect(try TimeBasedOneTimePassword(base32Secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ").code(at: Date(timeIntervalSince1970: 59)) == "287082")
    }

    @Test("the time step, the seconds left in it, and errors that never show the secret")
    func stepsAndErrors() throws {
        let generator = try TimeBasedOneTimePassword(base32Secret: "JBSWY3DPEHPK3PXP")
        #expect(generator.timeStep(at: Date(timeIntervalSince1970: 89)) == 2)
        #expect(generator.secondsLeft(at: Date(timeIntervalSince1970: 89)) == 1)
        #expect(generator.secondsLeft(at: Date(timeIntervalSince1970: 90)) == 30)
        #expect(!"\(generator)".contains("JBSWY3DPEHPK3PXP"))
        #expect(throws: TimeBasedOneTimePasswordError.invalidSecret("the secret is not base32 (letters A-Z and digits 2-7)")) {
            try TimeBasedOneTimePassword(base32Secret: "JBSWY3DPEHPK3PX1")
        }
        #expect(throws: TimeBasedOneTimePasswordError.invalidDigits(9)) { try TimeBasedOneTimePassword(base32Secret: "JBSWY3DP", digits: 9) }
        #expect(throws: TimeBasedOneTimePasswordError.invalidPeriod(0)) { try TimeBasedOneTimePassword(base32Secret: "JBSWY3DP", period: 0) }
        #expect(throws: TimeBasedOneTimePasswordError.invalidSecret("the secret is empty")) { try TimeBasedOneTimePassword(base32Secret: "") }
    }
}
