import Foundation
@testable import SignInFiles
import Testing

/// A login script's `totp` value as the parser reads it (the sign-in that types its codes is
/// WebAuthSessionTests' TOTPSignInTests).
@Suite("TOTP in login scripts (parsing)")
struct TOTPSourceParsingTests {
    @Test("totp in a script: secret_env or secret_file, optional algorithm, digits, period; never a literal secret")
    func parsing() throws {
        let decode = { (json: String) in try JSONDecoder().decode(LoginStep.self, from: Data(json.utf8)) }
        #expect(try decode(##"{"fill": "#code", "totp": {"secret_env": "TOTP_SECRET"}}"##)
            == .fill("#code", .totp(TOTPSource(secret: .environment("TOTP_SECRET")))))
        #expect(try decode(##"{"type": "#code", "totp": {"secret_file": "/run/totp", "algorithm": "SHA512", "digits": 8, "period": 60}}"##)
            == .type("#code", .totp(TOTPSource(secret: .file("/run/totp"), algorithm: .sha512, digits: 8, period: 60))))
        #expect(try decode(##"{"type": "#user", "env": "USER"}"##) == .type("#user", .environment("USER")))
        for bad in [##"{"fill": "#code", "totp": {"secret": "JBSWY3DPEHPK3PXP"}}"##,
                    ##"{"fill": "#code", "totp": {"secret_env": "A", "secret_file": "/b"}}"##,
                    ##"{"fill": "#code", "totp": {"secret_env": "A", "digits": 9}}"##,
                    ##"{"fill": "#code", "totp": {"secret_env": "A", "algorithm": "MD5"}}"##,
                    ##"{"click": "#go", "totp": {"secret_env": "A"}}"##] {
            #expect(throws: DecodingError.self, "\(bad)") { try decode(bad) }
        }
    }
}
