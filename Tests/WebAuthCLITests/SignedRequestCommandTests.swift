import DevProvider
import Foundation
import OpenIDConnect
import OpenIDConnectURLSession
import TestSupport
import Testing

/// `--private-key-file`, `--par` and `--dpop` as a user gives them: on the command
/// line and in `--config`, against the development provider in this process.
@Suite("webauth login with private_key_jwt, PAR and DPoP (the built binary)", .startsWebKit(minutes: 3))
struct SignedRequestCommandTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    func script() throws -> String { try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript) }

    /// The saved sign-ins' files, as text.
    func savedFiles() throws -> String {
        let state = webauth.home.appendingPathComponent("state")
        let files = FileManager.default.enumerator(at: state, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    @Test("--private-key-file signs in through the PAR a provider requires, --dpop binds the tokens, and token refreshes with the saved key path")
    func privateKeyPARAndDPoPFlags() async throws {
        let pair = try ClientKeyPair(.ec, in: webauth.home)
        var settings = DevProviderConfiguration()
        settings.clients = [OpenIDProvider.Client(clientID: "key-app", redirectURIs: ["com.example.webauth:/callback"], jwk: pair.jwk)]
        settings.requirePushedAuthorizationRequests = true
        settings.accessTokenLifetime = 30  // within token's 60 s tolerance: every token run refreshes
        let provider = try await OpenIDProvider.start(configuration: settings)
        let login = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "key-app", "--private-key-file", pair.path,
                                       "--private-key-id", "k1", "--dpop", "--headless", "--script", try script()])
        #expect(login.status == 0, "stderr: \(login.stderr)")
        #expect(provider.requestCount("/par") == 1, "the request was pushed because discovery requires it")
        let saved = try savedFiles()
        let fileName = URL(fileURLWithPath: pair.path).lastPathComponent  // JSON may escape the slashes
        #expect(saved.contains("private_key_jwt") && saved.contains(fileName), "the key's path is saved")
        #expect(!saved.contains(String(pair.pem.split(separator: "\n")[1])), "the key's bytes are not")

        let token = try await webauth(["token"])
        #expect(token.status == 0 && provider.refreshCount == 1, "stderr: \(token.stderr)")
        let userinfo = try await webauth(["userinfo"])
        #expect(try JSONValue(parsing: userinfo.stdout)["sub"] == .string(OpenIDProvider.User.alice.subject), "stderr: \(userinfo.stderr)")

        try FileManager.default.removeItem(atPath: pair.path)
        let missingKey = try await webauth(["token"])
        #expect(missingKey.status == 64 && missingKey.stderr.contains(pair.path), "stderr: \(missingKey.stderr)")
    }

    @Test("--private-key-file with a PKCS#11 URI signs on a SoftHSM2 token with the PIN from WEBAUTH_PKCS11_PIN, and token refreshes with it; no PIN, a wrong one or one in the URI is a usage error that never shows it",
          arguments: [(ClientKeyPair.Kind.ec, "ES256"), (.rsa, "PS256")])
    func keyOnAToken(kind: ClientKeyPair.Kind, algorithm: String) async throws {
        let pair = try ClientKeyPair(kind, in: webauth.home)
        let token = try await SoftHSMToken(key: pair.path)
        try FileManager.default.removeItem(atPath: pair.path)  // only the token has the key now
        var settings = DevProviderConfiguration()
        settings.clients = [OpenIDProvider.Client(clientID: "key-app", redirectURIs: ["com.example.webauth:/callback"], jwk: pair.jwk)]
        settings.accessTokenLifetime = 30  // within token's 60 s tolerance: every token run refreshes
        let provider = try await OpenIDProvider.start(configuration: settings)
        let withPIN = token.environment.merging(["WEBAUTH_PKCS11_PIN": token.pin]) { $1 }
        let login = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "key-app", "--private-key-file", token.uri,
                                       "--private-key-algorithm", algorithm, "--headless", "--script", try script()], environment: withPIN)
        #expect(login.status == 0, "stderr: \(login.stderr)")
        let saved = try savedFiles()
        #expect(saved.contains(token.label) && !saved.contains(token.pin), "the URI is saved, not the PIN")

        let refreshed = try await webauth(["token"], environment: withPIN)
        #expect(refreshed.status == 0 && provider.refreshCount == 1, "stderr: \(refreshed.stderr)")
        let pages = provider.requestCount("/authorize")
        let noPIN = try await webauth(["token"], environment: token.environment)
        #expect(noPIN.status == 64 && noPIN.stderr.contains("needs its PIN") && noPIN.stderr.contains("WEBAUTH_PKCS11_PIN"), "stderr: \(noPIN.stderr)")
        let wrongPIN = try await webauth(["token"], environment: token.environment.merging(["WEBAUTH_PKCS11_PIN": "9" + token.pin]) { $1 })
        #expect(wrongPIN.status == 64 && wrongPIN.stderr.contains("refused the PIN"), "stderr: \(wrongPIN.stderr)")
        let inURI = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "key-app", "--headless",
                                       "--private-key-file", token.uri + ";pin-value=" + token.pin], environment: token.environment)
        #expect(inURI.status == 64 && inURI.stderr.contains("must not hold a PIN"), "stderr: \(inURI.stderr)")
        #expect(provider.refreshCount == 1 && provider.requestCount("/authorize") == pages, "nothing was sent without a good PIN")
        for run in [login, refreshed, noPIN, wrongPIN, inURI] {
            #expect(!(run.stdout + run.stderr).contains(token.pin), "the PIN is never shown")
        }
    }

    @Test("par and dpop in --config; token --dpop prints the header lines of the caller's own request")
    func configAndDPoPHeaders() async throws {
        let provider = try await OpenIDProvider.start()
        let config = try webauth.file("client.json", """
            {"issuer": "\(provider.issuer)", "client_id": "webauth-demo", "par": true, "dpop": true}
            """)
        let login = try await webauth(["login", "--config", config, "--headless", "--script", try script()])
        #expect(login.status == 0, "stderr: \(login.stderr)")
        #expect(provider.requestCount("/par") == 1)

        let userinfo = provider.issuer + "/userinfo"
        let headers = try await webauth(["token", "--dpop", "GET", userinfo + "?x=1"])
        #expect(headers.status == 0, "stderr: \(headers.stderr)")
        let lines = headers.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("DPoP: ey") && lines[1].hasPrefix("Authorization: DPoP "))
        let fields = Dictionary(lines.compactMap { line in
            line.firstIndex(of: ":").map { (String(line[..<$0]), String(line[line.index($0, offsetBy: 2)...])) }
        }, uniquingKeysWith: { $1 })
        let answer = try await URLSessionHTTPClient().send(HTTPRequest(url: URL(string: userinfo + "?x=1")!, headers: fields))
        #expect(answer.status == 200, "the printed headers present the bound token")
        let again = try await URLSessionHTTPClient().send(HTTPRequest(url: URL(string: userinfo)!, headers: fields))
        #expect(again.status == 401, "a proof is good for one request")

        let bad = try await webauth(["token", "--dpop", "GET"])
        #expect(bad.status == 64 && bad.stderr.contains("--dpop takes a method and a URL"), "stderr: \(bad.stderr)")
    }
}
