import Foundation
@testable import SignInFiles
import Testing
import WebAuthn

/// A login script's `passkey:` as the CLI reads it: its keys, their defaults, and an error
/// with "did you mean" for a misspelt one.
@Suite("Passkeys in login scripts (parsing)")
struct PasskeyScriptTests {
    /// `text` as a script file, read (as the other parsing tests read theirs).
    static func parse(_ text: String) throws(LoginScriptFileError) -> LoginScript {
        try ScriptStepParsingTests().parse(text)
    }

    @Test("every key, and the defaults of a passkey")
    func keys() throws {
        let script = try Self.parse("""
            passkey:
              credentials_file: ~/passkeys.json
              user_presence: false
              user_verification: false
              algorithm: EdDSA
              discoverable: false
              sign_count: zero
              user: alice
            steps: [{click: "#use-passkey"}]
            """)
        #expect(script.passkey == VirtualAuthenticatorSettings(credentialsFile: "~/passkeys.json", userPresence: false, userVerification: false,
                                                               algorithm: .edDSA, discoverable: false, signCount: .zero, user: "alice"))
        #expect(try Self.parse("passkey: {}\nsteps: []\n").passkey == VirtualAuthenticatorSettings())
        #expect(try Self.parse("steps: []\n").passkey == nil)
    }

    @Test("a misspelt key names the right one; a wrong value says which are allowed", arguments: [
        ("passkey: {credential_file: x}", "did you mean 'credentials_file'"),
        ("passkeys: {}", "did you mean 'passkey'"),
        ("passkey: {algorithm: RS256}", "algorithm must be ES256 or EdDSA, not RS256"),
        ("passkey: {sign_count: sometimes}", "sign_count must be increment or zero"),
        ("passkey: {credentials_file: ''}", "credentials_file is empty"),
    ])
    func errors(line: String, message: String) {
        #expect { try Self.parse(line + "\nsteps: []\n") } throws: { "\($0)".contains(message) }
    }
}
