import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth login` against a provider that requires a client certificate (mutual TLS): an HTTPS
/// front (`tls_front.py`) that refuses a handshake without a certificate its CA signed, and logs
/// the certificate's subject for each request, in front of the development provider in this process.
@Suite("webauth login with a client certificate (the built binary)", .startsWebKit(minutes: 3))
struct ClientCertificateTests {
    var webauth = WebAuthBinary()
    let password = "p12-\(UUID().uuidString.prefix(8))"

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    /// A provider and a front that requires a client certificate.
    func start() async throws -> (OpenIDProvider, TLSFront) {
        let provider = try await OpenIDProvider.start()
        return (provider, try await TLSFront(backendPort: URL(string: provider.issuer)!.port!, clientCertificatePassword: password))
    }

    /// `login` through `front`, trusting its CA, with no proxy (the front is on this machine).
    func login(_ provider: OpenIDProvider, through front: TLSFront, _ extra: [String], environment: [String: String] = [:]) async throws
        -> WebAuthBinary.Run {
        try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--store", "none",
                           "--script", try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript),
                           "--authorization-endpoint", front.url + "/authorize", "--token-endpoint", front.url + "/token",
                           "--jwks-uri", front.url + "/jwks", "--ca-file", front.caFile, "--proxy", "none"] + extra,
                          environment: environment)
    }

    /// The front's log: `METHOD PATH CN` per request.
    func clients(of front: TLSFront) -> [String] {
        let log = (try? String(contentsOf: front.workdir.appendingPathComponent("clients.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    @Test("--client-certificate with a PEM file, a PKCS#12 file (password from the environment) or client_certificate in --config: the page and the token request both present it")
    func fromFiles() async throws {
        let (provider, front) = try await start()
        let file = { (name: String) in front.workdir.appendingPathComponent(name).path }
        let pem = try await login(provider, through: front, ["--client-certificate", file("client.pem")])
        #expect(pem.status == 0, "stderr: \(pem.stderr)")
        #expect(clients(of: front).contains("GET /authorize webauth test client"), "the page presented it: \(clients(of: front))")
        #expect(clients(of: front).contains("POST /token webauth test client"), "the token request presented it: \(clients(of: front))")
        let p12 = try await login(provider, through: front, ["--client-certificate", file("client.p12")],
                                  environment: ["WEBAUTH_CLIENT_CERTIFICATE_PASSWORD": password])
        #expect(p12.status == 0, "stderr: \(p12.stderr)")
        let config = try webauth.file("config-\(UUID().uuidString).json",
                                      #"{"client_certificate": "\#(file("client-cert.pem"))", "client_certificate_key": "\#(file("client-key.pem"))"}"#)
        let fromConfig = try await login(provider, through: front, ["--config", config])
        await front.stop()
        #expect(fromConfig.status == 0, "stderr: \(fromConfig.stderr)")
        #expect(clients(of: front).filter { $0 == "POST /token webauth test client" }.count == 3, "\(clients(of: front))")
        #expect(provider.requestCount("/token") == 3)
    }

    @Test("without a client certificate the sign-in ends at once with the typed error that names the flag (usage status), not a hang")
    func withoutCertificate() async throws {
        let (provider, front) = try await start()
        let run = try await login(provider, through: front, [])
        await front.stop()
        #expect(run.status == 64, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("127.0.0.1 asks for a client certificate") && run.stderr.contains("--client-certificate"), "stderr: \(run.stderr)")
        #expect(provider.requestCount("/authorize") == 0 && provider.requestCount("/token") == 0)
    }

    @Test("a wrong or missing PKCS#12 password, or a PEM file with no key, fails before any page opens, naming the file and never the password")
    func unusableFiles() async throws {
        let (provider, front) = try await start()
        let p12 = front.workdir.appendingPathComponent("client.p12").path
        let wrong = try await login(provider, through: front, ["--client-certificate", p12],
                                    environment: ["WEBAUTH_CLIENT_CERTIFICATE_PASSWORD": "not-" + password])
        let none = try await login(provider, through: front, ["--client-certificate", p12])
        let noKey = try await login(provider, through: front, ["--client-certificate", front.workdir.appendingPathComponent("client-cert.pem").path])
        await front.stop()
        #expect(wrong.status == 64 && wrong.stderr.contains("the password does not open the client certificate \(p12)"), "stderr: \(wrong.stderr)")
        #expect(none.status == 64 && none.stderr.contains("\(p12) needs a password"), "stderr: \(none.stderr)")
        #expect(noKey.status == 64 && noKey.stderr.contains("holds no private key"), "stderr: \(noKey.stderr)")
        #expect(clients(of: front).isEmpty && provider.requestCount("/authorize") == 0)
        for output in [wrong, none, noKey].flatMap({ [$0.stdout, $0.stderr] }) {
            #expect(!output.contains(password), "the PKCS#12 password is never printed")
        }
    }

    /// A SoftHSM2 token holding the front's client certificate and key.
    func token(for front: TLSFront) async throws -> SoftHSMToken {
        try await SoftHSMToken(certificate: front.workdir.appendingPathComponent("client-cert.pem").path,
                               key: front.workdir.appendingPathComponent("client-key.pem").path)
    }

    @Test("--client-certificate pkcs11:URI with the key on a SoftHSM2 token, the PIN from WEBAUTH_PKCS11_PIN: the page and the token request present it")
    func fromPKCS11Token() async throws {
        let (provider, front) = try await start()
        let token = try await token(for: front)
        let run = try await login(provider, through: front, ["--client-certificate", token.uri],
                                  environment: token.environment.merging(["WEBAUTH_PKCS11_PIN": token.pin]) { $1 })
        await front.stop()
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(clients(of: front).contains("GET /authorize webauth test client"), "the page presented it: \(clients(of: front))")
        #expect(clients(of: front).contains("POST /token webauth test client"), "the token request presented it: \(clients(of: front))")
        #expect(!run.stdout.contains(token.pin) && !run.stderr.contains(token.pin))
    }

    @Test("a wrong PKCS#11 PIN, none, a PIN in --client-certificate, a token that is not there, or a key file beside a URI: typed errors (usage status) that never print the PIN")
    func unusableToken() async throws {
        let (provider, front) = try await start()
        let token = try await token(for: front)
        let wrong = try await login(provider, through: front, ["--client-certificate", token.uri],
                                    environment: token.environment.merging(["WEBAUTH_PKCS11_PIN": "x" + token.pin]) { $1 })
        let none = try await login(provider, through: front, ["--client-certificate", token.uri], environment: token.environment)
        let inURI = try await login(provider, through: front, ["--client-certificate", token.uri + ";pin-value=" + token.pin], environment: token.environment)
        let absent = try await login(provider, through: front, ["--client-certificate", "pkcs11:token=no-such-token;object=login"],
                                     environment: token.environment.merging(["WEBAUTH_PKCS11_PIN": token.pin]) { $1 })
        let withKeyFile = try await login(provider, through: front, ["--client-certificate", token.uri, "--client-certificate-key", front.caFile],
                                          environment: token.environment.merging(["WEBAUTH_PKCS11_PIN": token.pin]) { $1 })
        await front.stop()
        #expect(withKeyFile.status == 64 && withKeyFile.stderr.contains("--client-certificate-key goes with a PEM file"), "stderr: \(withKeyFile.stderr)")
        #expect(wrong.status == 64 && wrong.stderr.contains("the token of the client certificate \(token.uri) refused the PIN"), "stderr: \(wrong.stderr)")
        #expect(none.status == 64 && none.stderr.contains("needs a PIN"), "stderr: \(none.stderr)")
        #expect(inURI.status == 64 && inURI.stderr.contains("WEBAUTH_PKCS11_PIN"), "stderr: \(inURI.stderr)")
        #expect(absent.status == 64 && absent.stderr.contains("no PKCS#11 token holds the client certificate pkcs11:token=no-such-token"),
                "stderr: \(absent.stderr)")
        #expect(provider.requestCount("/token") == 0)
        for output in [wrong, none, inURI, absent].flatMap({ [$0.stdout, $0.stderr] }) {
            #expect(!output.contains(token.pin), "the PIN is never printed")
        }
    }

    @Test("a wrong PKCS#11 PIN at the HTTP client (discovery, before any page) is a TLS error naming the token, never the PIN")
    func wrongPINForRequests() async throws {
        let (provider, front) = try await start()
        let token = try await token(for: front)
        let run = try await webauth(["login", "--issuer", front.url, "--client-id", "webauth-demo", "--headless", "--store", "none",
                                     "--ca-file", front.caFile, "--proxy", "none", "--client-certificate", token.uri],
                                    environment: token.environment.merging(["WEBAUTH_PKCS11_PIN": "x" + token.pin]) { $1 })
        await front.stop()
        #expect(run.status == 4 && run.stderr.contains("the client certificate's token \(token.uri) was given no PIN, or refused it"),
                "stderr: \(run.stderr)")
        #expect(clients(of: front).isEmpty && provider.requestCount("/authorize") == 0)
        #expect(!run.stdout.contains(token.pin) && !run.stderr.contains(token.pin))
    }
}
