import DevProvider
import Foundation
import OpenIDConnect

/// What most broker tests start from: the development provider, a private bus whose broker knows
/// alice's password, and the login script that signs her in.
struct BrokerFixture {
    let provider: OpenIDProvider
    let bus: BrokerBus
    /// The login script's path.
    let script: String

    /// Starts the provider and the bus in `webauth`'s sandbox; the broker runs with `arguments`
    /// and `environment` added to its own.
    static func start(_ webauth: WebAuthBinary, display: Bool = false, arguments: [String] = ["--allow-scripts"],
                      environment: [String: String] = [:], machineServices: Bool = false) async throws -> BrokerFixture {
        let provider = try await OpenIDProvider.start()
        let bus = try await BrokerBus.start(webauth, display: display, arguments: arguments,
                                            environment: environment.merging(["ALICE_PASSWORD": OpenIDProvider.User.alice.password]) { $1 },
                                            machineServices: machineServices)
        return BrokerFixture(provider: provider, bus: bus, script: try webauth.file("login.yaml", LoginCommandTests.passwordScript))
    }

    /// The options of a scripted sign-in of `account` at the provider.
    func signInOptions(account: String) -> [String: JSONValue] {
        ["issuer": .string(provider.issuer), "client_id": .string("webauth-demo"), "account": .string(account), "script_file": .string(script)]
    }

    /// Signs `account` in with the tests' Python client, which then owns it.
    func signIn(_ account: String) async throws -> JSONValue {
        try await bus.request(signInOptions(account: account))
    }
}
