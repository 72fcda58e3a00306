import ArgumentParser
import DevProvider
import Foundation
import JWTKit
import UnixSignals
import WebAuthCommandLine

/// `webauth provider`: the development OpenID provider as a command.
struct Provider: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the development OpenID provider on 127.0.0.1 until interrupted.",
        discussion: """
            Prints the issuer URL on stdout (a free port unless --port is given); the endpoints, \
            users and clients go to stderr. Users and clients are built in (alice / wonderland, \
            bob / builder; the public client webauth-demo with redirect URI \
            com.example.webauth:/callback) or come from --config. For tests only: its passwords \
            are demo passwords and it speaks plain HTTP.
            """)

    @Option(help: "Loopback address to listen on (localhost for passkeys: a relying party is a domain, not an address).")
    var host = "127.0.0.1"

    @Option(help: "Port (0: a free one).")
    var port = 0

    @Option(help: ArgumentHelp("A JSON file with users, clients, login_method, access_token_lifetime, faults, remembers_people.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("A PEM P-256 private key to sign ID tokens with (default: a new key).", valueName: "file"))
    var key: String?

    @Option(help: ArgumentHelp("Inject a fault (repeatable): \(ProviderFault.allCases.map(\.rawValue).joined(separator: ", ")).",
                               valueName: "fault"))
    var fault: [ProviderFault] = []

    @Option(help: "The login page shown first: password or email_code.")
    var loginMethod: DevProviderConfiguration.LoginMethod?

    func validate() throws {
        guard ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.") else {
            throw ValidationError("--host must be a loopback address: the development provider is for this machine only")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() async throws {
        try await reportingFailures {
            var settings = DevProviderConfiguration()
            if let config {
                do { settings = try DevProviderConfiguration.load(from: URL(fileURLWithPath: config)) } catch {
                    throw CommandFailure(.usage, "\(error)")
                }
            }
            settings.faults.formUnion(fault)
            if let loginMethod { settings.loginMethod = loginMethod }
            let signingKey: ES256PrivateKey
            do { signingKey = try key.map { try OpenIDProvider.signingKey(pemFile: URL(fileURLWithPath: $0)) } ?? ES256PrivateKey() } catch {
                throw CommandFailure(.usage, "\(error)")
            }
            let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
            let provider: OpenIDProvider
            do { provider = try await OpenIDProvider.start(configuration: settings, signingKey: signingKey, host: host, port: port) } catch {
                if case .portInUse? = error as? LocalHTTPServerError {
                    throw CommandFailure(.usage, "\(error)", advice: "Choose another --port, or 0 for a free one.")
                }
                throw CommandFailure(.localFailure, "the provider could not start: \(error)")
            }
            FileHandle.standardOutput.write(Data((provider.issuer + "\n").utf8))
            Self.describe(provider)
            for await _ in signals { break }
            await provider.stop()
        }
    }

    private static func describe(_ provider: OpenIDProvider) {
        let settings = provider.configuration
        var lines = ["Development OpenID provider at \(provider.issuer) (Ctrl-C stops it)",
                     "  discovery  \(provider.issuer)/.well-known/openid-configuration",
                     "  outbox     \(provider.issuer)/outbox?email=ADDRESS (the email login's one-time codes)",
                     "  login page \(settings.loginMethod.rawValue)"]
        lines += settings.users.map { "  user       \($0.username) <\($0.email)>" }
        lines += settings.clients.map { client in
            "  client     \(client.clientID) (\(client.jwk != nil ? "private_key_jwt" : client.clientSecret == nil ? "public" : "confidential")) → \(client.redirectURIs.joined(separator: ", "))"
                + (client.requiresConsent ? ", asks for consent" : "")
        }
        if !settings.faults.isEmpty { lines.append("  faults     \(settings.faults.map(\.rawValue).sorted().joined(separator: ", "))") }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

extension ProviderFault: ExpressibleByArgument {}
extension DevProviderConfiguration.LoginMethod: ExpressibleByArgument {}
