import Foundation
import SecretGate
import Testing

/// The one gate every released secret passes: its rules, the credential helpers' host mapping
/// and requests, and the token text check, each tried as an attacker would.
@Suite("The secret gate")
struct SecretGateTests {
    static let page = SecretGate(providerURL: URL(string: "https://id.example.com/authorize")!, secretHosts: ["LOGIN.partner.example"])

    @Test("page secrets go to the provider's host and secret_hosts, over https or to a loopback host, on any port",
          arguments: [ReleasedSecret.typedValue, .httpAuthenticationPassword(realm: "r"), .clientCertificate])
    func pageSecrets(secret: ReleasedSecret) throws {
        try Self.page.check(secret, to: .site(scheme: "https", host: "id.example.com", port: 8443))
        try Self.page.check(secret, to: .site(scheme: "https", host: "login.partner.example", port: nil))
        #expect(throws: SecretRefusal(secret: secret, recipient: .site(scheme: "http", host: "id.example.com", port: nil), reason: .notPrivate)) {
            try Self.page.check(secret, to: .site(scheme: "http", host: "id.example.com", port: nil))
        }
        #expect(throws: SecretRefusal(secret: secret, recipient: .site(scheme: "https", host: "id.example.com.evil", port: nil),
                                      reason: .hostNotAllowed(allowed: ["id.example.com", "login.partner.example"]))) {
            try Self.page.check(secret, to: .site(scheme: "https", host: "id.example.com.evil", port: nil))
        }
        let loopback = SecretGate(providerURL: URL(string: "http://127.0.0.1:9000/")!, secretHosts: ["::1"])
        try loopback.check(secret, to: .site(scheme: "http", host: "127.0.0.1", port: 9001))
        try loopback.check(secret, to: .site(scheme: "http", host: "[::1]", port: 9001))
        #expect(throws: SecretRefusal.self) { try loopback.check(secret, to: .site(scheme: "http", host: "localhost", port: 9000)) }
        #expect(throws: SecretRefusal.self) { try Self.page.check(secret, to: .process("a program")) }
    }

    @Test("a refusal names the secret, the site and the rule, never a value")
    func refusalMessage() {
        let refusal = SecretRefusal(secret: .httpAuthenticationPassword(realm: "Staff"), recipient: .site(scheme: "http", host: "evil.example", port: 8080),
                                    reason: .notPrivate)
        #expect(refusal.description == "refusing to send the HTTP-authentication password (realm 'Staff') to http://evil.example:8080: it is not served over https")
    }

    // MARK: credential_hosts

    @Test("credential_hosts keys: name is https on 443, name:port another port, http:// only for a loopback host")
    func credentialHostKeys() throws {
        let map = try CredentialHostMap(["git.example.com": "work", "registry.example.com:5000": "ci", "http://localhost:8080": "dev",
                                         "https://[::1]:8443": "dev"])
        let gate = SecretGate(credentialHosts: map)
        #expect(try gate.tokenProfile(for: .site(scheme: "https", host: "GIT.example.com", port: nil)) == "work")
        #expect(try gate.tokenProfile(for: .site(scheme: "https", host: "git.example.com", port: 443)) == "work")
        #expect(try gate.tokenProfile(for: .site(scheme: nil, host: "registry.example.com", port: 5000)) == "ci")
        #expect(try gate.tokenProfile(for: .site(scheme: "http", host: "localhost", port: 8080)) == "dev")
        #expect(try gate.tokenProfile(for: .site(scheme: "https", host: "::1", port: 8443)) == "dev")
        for (site, reason) in [(SecretRecipient.site(scheme: "https", host: "git.example.com", port: 8443), SecretRefusal.Reason.siteNotMapped),
                               (.site(scheme: "https", host: "registry.example.com", port: nil), .siteNotMapped),
                               (.site(scheme: "http", host: "git.example.com", port: nil), .notPrivate),
                               (.site(scheme: "https", host: "localhost", port: 8080), .siteNotMapped),
                               (.site(scheme: "https", host: "attacker.example", port: nil), .siteNotMapped)] {
            #expect(throws: SecretRefusal(secret: .accessToken(profile: ""), recipient: site, reason: reason)) { try gate.tokenProfile(for: site) }
        }
        #expect(throws: SecretRefusal(secret: .accessToken(profile: "ci"), recipient: .site(scheme: "https", host: "git.example.com", port: nil),
                                      reason: .otherProfile("work"))) {
            try gate.tokenProfile(for: .site(scheme: "https", host: "git.example.com", port: nil), only: "ci")
        }
        #expect(map.profiles.keys.map(\.description).sorted() == ["[::1]:8443", "git.example.com", "http://localhost:8080", "registry.example.com:5000"])
    }

    @Test("no mapping serves no site at all", arguments: [nil, try! CredentialHostMap([:])])
    func noMapping(map: CredentialHostMap?) {
        let site = SecretRecipient.site(scheme: "https", host: "git.example.com", port: nil)
        #expect(throws: SecretRefusal(secret: .accessToken(profile: "default"), recipient: site, reason: .noCredentialHosts)) {
            try SecretGate(credentialHosts: map).tokenProfile(for: site, only: "default")
        }
    }

    @Test("credential_hosts keys that would leak or cannot be read are refused with the key named",
          arguments: ["http://git.example.com", "ftp://git.example.com", "https://alice@git.example.com", "git.example.com/path", "", "http://10.0.0.1:80"])
    func badKeys(key: String) {
        #expect(throws: CredentialHostMap.EntryError.self) { try CredentialHostMap([key: "work"]) }
    }

    // MARK: helper requests

    @Test("git's request: protocol, host with port, the erase password; a line with CR, unknown protocols and no host answer nothing")
    func gitRequests() {
        #expect(CredentialHelperRequest(git: Data("protocol=https\nhost=git.example.com:8443\npath=a/b\n\n".utf8))
                == CredentialHelperRequest(site: .site(scheme: "https", host: "git.example.com", port: 8443)))
        #expect(CredentialHelperRequest(git: Data("protocol=https\r\nhost=git.example.com\r\npassword=t0k\r\n\r\n".utf8))
                == CredentialHelperRequest(site: .site(scheme: "https", host: "git.example.com", port: nil), password: "t0k"))
        #expect(CredentialHelperRequest(git: Data("protocol=ssh\nhost=git.example.com\n\n".utf8)) == nil)
        #expect(CredentialHelperRequest(git: Data("protocol=https\n\nhost=git.example.com\n".utf8)) == nil, "after the blank line nothing counts")
        #expect(CredentialHelperRequest(git: Data("protocol=https\nhost=git.example.com/x\n\n".utf8)) == nil)
    }

    @Test("Docker's server URL: with a scheme, the scheme counts; without, either scheme's key matches")
    func dockerRequests() {
        #expect(CredentialHelperRequest(dockerServerURL: "https://registry.example.com/v2/\n")?.site == .site(scheme: "https", host: "registry.example.com", port: nil))
        #expect(CredentialHelperRequest(dockerServerURL: "localhost:5000")?.site == .site(scheme: nil, host: "localhost", port: 5000))
        #expect(CredentialHelperRequest(dockerServerURL: "ftp://registry.example.com") == nil)
        #expect(CredentialHelperRequest(dockerServerURL: "") == nil)
    }

    // MARK: tokens and variables

    @Test("a token is refused outside %x20-7E (a newline could add git attributes); printable but not b64token is only noted")
    func tokenText() {
        #expect(TokenText.verdict("eyJhbGciOi.J9-_~+/abc==") == .bearerToken)
        #expect(TokenText.verdict("opaque token with spaces") == .printable)
        #expect(TokenText.verdict("=") == .printable)
        for unsafe in ["t0k\nquit=1", "t0k\r", "t0k\u{7F}", "tök", "", "t\u{1B}[31m"] {
            #expect(TokenText.verdict(unsafe) == .unsafe, "\(unsafe.debugDescription)")
            #expect(throws: SecretRefusal.self) { try TokenText.check(unsafe, as: .accessToken(profile: "p"), to: .process("git")) }
        }
    }

    @Test("a program we start gets none of our secret variables, and the token variable it was asked for")
    func childEnvironment() throws {
        let environment = ["PATH": "/usr/bin", "WEBAUTH_PKCS11_PIN": "1234", "WEBAUTH_CLIENT_SECRET": "s", "WEBAUTH_PROXY_PASSWORD": "p",
                           "WEBAUTH_CLIENT_CERTIFICATE_PASSWORD": "c", "ALICE_PASSWORD": "a", "WEBAUTH_PROFILE": "work"]
        let gate = SecretGate(withheldVariables: SecretVariables.known.union(["ALICE_PASSWORD"]))
        #expect(gate.environment(for: "exec", from: environment, adding: ["ACCESS_TOKEN": "t"])
                == ["PATH": "/usr/bin", "WEBAUTH_PROFILE": "work", "ACCESS_TOKEN": "t"])
        try gate.check(.accessToken(profile: "work"), to: .process("exec"))
        #expect(throws: SecretRefusal.self) { try gate.check(.environmentVariable("WEBAUTH_PKCS11_PIN"), to: .process("exec")) }
        #expect(throws: SecretRefusal.self) { try gate.check(.environmentVariable("PATH"), to: .site(scheme: "https", host: "x", port: nil)) }
    }
}
