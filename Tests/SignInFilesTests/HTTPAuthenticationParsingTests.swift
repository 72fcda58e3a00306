@testable import SignInFiles
import Testing

/// A script file's `http_auth`: a literal user name and a password from env, file or command, never a literal.
@Suite("Login script http_auth (parsing)")
struct HTTPAuthenticationParsingTests {
    @Test("http_auth reads as the user name and the password's source", arguments: [
        ("{env: SITE_PASSWORD}", LoginValue.environment("SITE_PASSWORD")),
        ("{file: /run/secrets/site}", .file("/run/secrets/site")),
        ("{command: 'pass show site'}", .command("pass show site")),
        ("{var: password}", .variable("password")),
    ])
    func sources(password: String, source: LoginValue) throws {
        let script = try ScriptStepParsingTests().parse("http_auth:\n  username: alice\n  password: \(password)\nsteps: []\n")
        #expect(script.httpAuthentication == HTTPAuthenticationCredentials(username: "alice", password: source))
    }

    @Test("a literal password, or none, is refused", arguments: [
        "http_auth:\n  username: alice\n  password: s3cret-pw\nsteps: []\n",
        "http_auth:\n  username: alice\n  password: {value: s3cret-pw}\nsteps: []\n",
        "http_auth:\n  username: alice\nsteps: []\n",
    ])
    func literalRefused(text: String) {
        #expect(throws: LoginScriptFileError.self) { try ScriptStepParsingTests().parse(text) }
    }
}
