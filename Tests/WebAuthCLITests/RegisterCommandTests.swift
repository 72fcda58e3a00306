import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth register` (RFC 7591) then `login --profile` with nothing more, against the development
/// provider's registration endpoint in this process.
@Suite("webauth register: dynamic client registration (the built binary)", .startsWebKit(minutes: 3))
struct RegisterCommandTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    func register(_ provider: OpenIDProvider, _ extra: [String] = [], environment: [String: String] = [:]) async throws -> WebAuthBinary.Run {
        try await webauth(["register", "--issuer", provider.issuer, "--profile", "work", "--store", "file"] + extra, environment: environment)
    }

    func login() async throws -> WebAuthBinary.Run {
        try await webauth(["login", "--profile", "work", "--store", "file", "--headless",
                           "--script", try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)])
    }

    @Test("register a confidential client, then login --profile with nothing more, then token --refresh with its secret; nothing printed holds a secret")
    func registerThenSignIn() async throws {
        var settings = DevProviderConfiguration()
        settings.registeredSecretLifetime = 3600
        let provider = try await OpenIDProvider.start(configuration: settings)
        let registered = try await register(provider, ["--auth-method", "client_secret_basic", "--name", "Laptop"])
        #expect(registered.status == 0, "stderr: \(registered.stderr)")
        let summary = try JSONValue(parsing: registered.stdout)
        let clientID = try #require(summary["client_id"]?.stringValue)
        #expect(summary["token_endpoint_auth_method"]?.stringValue == "client_secret_basic" && summary["client_secret_expires_at"]?.stringValue != nil)
        let login = try await login()
        #expect(login.status == 0, "stderr: \(login.stderr)")
        let token = try await webauth(["token", "--profile", "work", "--store", "file", "--refresh"])
        #expect(token.status == 0 && provider.refreshCount == 1, "stderr: \(token.stderr)")
        let saved = try String(contentsOf: webauth.home.appendingPathComponent("state/webauthsession/work.json"), encoding: .utf8)
        let state = try JSONValue(parsing: saved)["state"]
        #expect(state?["client_id"]?.stringValue == clientID && state?["registration"]?["client_secret"]?.stringValue?.isEmpty == false,
                "the registration is kept with the sign-in")
        let mode = try FileManager.default.attributesOfItem(atPath: webauth.home.appendingPathComponent("state/webauthsession/work.json").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // The token command prints its access token, as asked; nothing else prints a secret.
        let printed = [registered.stdout, registered.stderr, login.stdout, login.stderr, token.stderr].joined(separator: "\n")
        #expect(provider.secretsSeen.filter { $0.count >= 16 }.allSatisfy { !printed.contains($0) }, "a secret in the output")
    }

    @Test("a provider that needs an initial access token: refused without it (exit 64), taken from a file or WEBAUTH_INITIAL_ACCESS_TOKEN")
    func initialAccessToken() async throws {
        var settings = DevProviderConfiguration()
        let token = "iat-" + UUID().uuidString
        settings.registrationInitialAccessToken = token
        let provider = try await OpenIDProvider.start(configuration: settings)
        let without = try await register(provider)
        #expect(without.status == 64 && without.stderr.contains("initial access token"), "stderr: \(without.stderr)")
        let fromFile = try await register(provider, ["--initial-access-token-file", try webauth.file("iat", token + "\n")])
        let fromEnvironment = try await register(provider, environment: ["WEBAUTH_INITIAL_ACCESS_TOKEN": token])
        #expect(fromFile.status == 0 && fromEnvironment.status == 0, "stderr: \(fromFile.stderr) \(fromEnvironment.stderr)")
        for run in [without, fromFile, fromEnvironment] { #expect(!run.stdout.contains(token) && !run.stderr.contains(token)) }
    }

    @Test("a registered secret that expired is not sent: login says so (exit 64) before any page, and names webauth register")
    func expiredSecret() async throws {
        var settings = DevProviderConfiguration()
        settings.registeredSecretLifetime = -60  // expired when issued
        let provider = try await OpenIDProvider.start(configuration: settings)
        let registered = try await register(provider, ["--auth-method", "client_secret_post"])
        #expect(registered.status == 0, "stderr: \(registered.stderr)")
        let login = try await login()
        #expect(login.status == 64 && login.stderr.contains("expired") && login.stderr.contains("webauth register"), "stderr: \(login.stderr)")
        #expect(provider.requestCount("/authorize") == 0)
    }
}
