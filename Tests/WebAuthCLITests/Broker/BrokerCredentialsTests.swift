import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// What the broker needs beyond a public client's sign-in: a confidential client's secret or
/// private key, found as `webauth token` finds it, and the route of the configuration file
/// (`proxy`, `ca_file`), else the account's sign-in's, for its refreshes and sign-ins. The sign-ins are `webauth login`'s, in the
/// store the broker shares; the tests' Python client, granted the account, calls `GetToken`.
@Suite("Broker: confidential clients and each account's route", .startsWebKit(minutes: 5))
struct BrokerCredentialsTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password  // the machine's proxy is never passed on: the file's is the only route
    }

    /// Signs alice in as `profile` with `webauth login` and `extra`.
    func login(_ provider: OpenIDProvider, profile: String, _ extra: [String]) async throws {
        let run = try await webauth(["login", "--issuer", provider.issuer, "--profile", profile, "--headless",
                                     "--script", try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)] + extra)
        try #require(run.status == 0, "stderr: \(run.stderr)")
    }

    /// `GetToken` of `account` by the tests' Python client, which `webauth broker --grant` allows first.
    func getToken(_ bus: BrokerBus, _ account: String) async throws -> JSONValue {
        let granted = try await webauth(["broker", "--grant", try bus.pythonApp(BrokerClient.call), account])
        try #require(granted.status == 0, "stderr: \(granted.stderr)")
        return try await bus.call(["account": .string(account)])
    }

    @Test("GetToken refreshes an account whose client authenticates with a secret (its file) or a private key (private_key_jwt), as webauth token does")
    func confidentialClients() async throws {
        let secret = "confidential-7f3c"
        let redirect = "com.example.server:/cb"
        let pair = try ClientKeyPair(.ec, in: webauth.home)
        var settings = DevProviderConfiguration()
        settings.clients = [OpenIDProvider.Client(clientID: "server-app", clientSecret: secret, redirectURIs: [redirect]),
                            OpenIDProvider.Client(clientID: "key-app", redirectURIs: ["com.example.webauth:/callback"], jwk: pair.jwk)]
        settings.accessTokenLifetime = 30  // within the minute's margin: every GetToken refreshes, which needs the client's credential
        let provider = try await OpenIDProvider.start(configuration: settings)
        try await login(provider, profile: "secret", ["--client-id", "server-app", "--client-secret-file", try webauth.file("client-secret", secret + "\n"),
                                                      "--redirect-uri", redirect, "--scope", "openid offline_access"])
        try await login(provider, profile: "key", ["--client-id", "key-app", "--private-key-file", pair.path, "--private-key-id", "k1"])
        let bus = try await BrokerBus.start(webauth)
        defer { Task { await bus.stop() } }

        let withSecret = try await getToken(bus, "secret")
        #expect(withSecret["results"]?["access_token"]?.stringValue?.isEmpty == false, "\(withSecret)\nbroker: \(bus.brokerLog)")
        let withKey = try await getToken(bus, "key")
        #expect(withKey["results"]?["access_token"]?.stringValue?.isEmpty == false, "\(withKey)\nbroker: \(bus.brokerLog)")
        #expect(provider.refreshCount == 2, "both refreshed at the provider, authenticated")

        try FileManager.default.removeItem(atPath: pair.path)
        let missingKey = try await bus.call(["account": .string("key")])
        #expect(missingKey["error_name"]?.stringValue == "org.webauthsession.Error.InvalidArgument"
                    && missingKey["message"]?.stringValue?.contains(pair.path) == true, "as webauth token's exit 64: \(missingKey)")
        #expect(provider.secretsSeen.allSatisfy { !bus.brokerLog.contains($0) } && !bus.brokerLog.contains(secret), "no secret in the broker's log")
    }

    @Test("the configuration file's proxy carries the broker's refreshes and its sign-ins (page and token request)")
    func proxyFromTheConfigurationFile() async throws {
        var settings = DevProviderConfiguration()
        settings.accessTokenLifetime = 30  // every GetToken refreshes
        let provider = try await OpenIDProvider.start(configuration: settings)
        try await login(provider, profile: "work", ["--client-id", "webauth-demo"])
        let proxy = try await Tinyproxy.start(in: webauth.home)
        try webauth.configure(#"{"proxy": "\#(proxy.url)"}"#)
        let bus = try await BrokerBus.start(webauth, environment: ["ALICE_PASSWORD": OpenIDProvider.User.alice.password])
        defer { Task { await bus.stop() } }

        let token = try await getToken(bus, "work")
        let signedIn = try await bus.request(["issuer": .string(provider.issuer), "client_id": .string("webauth-demo"), "account": .string("other"),
                                              "script_file": .string(try webauth.file("broker-login.yaml", LoginCommandTests.passwordScript))])
        let log = await proxy.stop()
        #expect(token["results"]?["access_token"] != nil && provider.refreshCount == 1, "\(token)\nbroker: \(bus.brokerLog)")
        #expect(signedIn["response"]?.numberValue == 0, "\(signedIn)\nbroker: \(bus.brokerLog)")
        #expect(log.components(separatedBy: "POST \(provider.issuer)/token ").count == 3, "the refresh and the sign-in's code exchange: \(log)")
        #expect(log.contains("GET \(provider.issuer)/authorize"), "the sign-in's page went through the proxy: \(log)")
    }

    @Test("the broker refreshes an account signed in with --ca-file on the route its sign-in saved; the configuration file's ca_file wins over it")
    func caFileOfTheSignIn() async throws {
        var settings = DevProviderConfiguration()
        settings.accessTokenLifetime = 30  // every GetToken refreshes
        let provider = try await OpenIDProvider.start(configuration: settings)
        let front = try await TLSFront(backendPort: URL(string: provider.issuer)!.port!)
        let other = try await TLSFront(backendPort: URL(string: provider.issuer)!.port!)
        defer { Task { await front.stop(); await other.stop() } }
        try await login(provider, profile: "work", ["--client-id", "webauth-demo", "--authorization-endpoint", front.url + "/authorize",
                                                    "--token-endpoint", front.url + "/token", "--jwks-uri", front.url + "/jwks", "--ca-file", front.caFile])
        let bus = try await BrokerBus.start(webauth)
        let token = try await getToken(bus, "work")
        await bus.stop()
        #expect(token["results"]?["access_token"] != nil && provider.refreshCount == 1, "\(token)\nbroker: \(bus.brokerLog)")

        try webauth.configure(#"{"ca_file": "\#(other.caFile)"}"#)
        let refusing = try await BrokerBus.start(webauth)
        defer { Task { await refusing.stop() } }
        let refused = try await getToken(refusing, "work")
        #expect(refused["error_name"]?.stringValue == "org.webauthsession.Error.NetworkError", "\(refused)")
    }
}
