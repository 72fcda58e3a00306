import Foundation
import OpenIDConnect
import TestSupport

/// LemonLDAP::NG's real portal (Debian's 2.16), run once per test process by
/// Fixtures/lemonldap/llng_provider.pl from the configuration template beside it, in a private
/// working directory. Issuer `http://localhost:PORT`; see the script for its users and clients.
/// It is never killed from here: the script ends itself when this process ends (it watches the
/// pipe it printed its port to).
final class LemonLDAPProvider: Sendable {
    /// The provider of this test run, started on first use (off the cooperative pool while it starts); its start-up error otherwise.
    static let shared = Task { () async throws(LemonLDAPStartError) -> LemonLDAPProvider in try await LemonLDAPProvider() }

    /// The port on 127.0.0.1.
    let port: Int
    /// The base32 secret of rtyler's TOTP device, made for this run.
    let totpSecret: String
    /// More Demo users with a TOTP device each (password = login), by name, with their secrets,
    /// made for this run: `totp1` to `totp5`, for tests that sign in several one after another.
    let totpUsers: [String: String]
    /// The secret of the confidential client `webauth-confidential`, made for this run.
    let clientSecret: String
    /// Holds the read end of the pipe the script watches: the portal lives as long as this process.
    private let process: ChildProcess

    private init() async throws(LemonLDAPStartError) {
        let workdir = TemporaryFiles.path("webauth-lemonldap")
        let log = workdir.appendingPathComponent("portal.log")
        let base32 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        let secret = { String((0..<32).map { _ in base32.randomElement()! }) }
        totpSecret = secret()
        totpUsers = Dictionary(uniqueKeysWithValues: (1...5).map { ("totp\($0)", secret()) })
        clientSecret = UUID().uuidString
        let script = Bundle.module.url(forResource: "llng_provider", withExtension: "pl", subdirectory: "Fixtures/lemonldap")!
        var environment = ProcessInfo.processInfo.environment
        environment["LLNG_TOTP_SECRET"] = totpSecret
        environment["LLNG_TOTP_USERS"] = totpUsers.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        environment["LLNG_CLIENT_SECRET"] = clientSecret
        do {
            try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
            process = try ChildProcess("perl", [script.path, workdir.path], environment: environment, stdout: .pipe, stderr: .file(log.path),
                                       outlivesTests: true)
        } catch {
            throw .notStarted(reason: "cannot run perl \(script.path): \(error)", log: "")
        }
        guard let port = await process.firstLine().flatMap(Int.init) else {
            process.signal(SIGKILL)
            throw .notStarted(reason: "llng_provider.pl ended before printing its port",
                              log: (try? String(contentsOf: log, encoding: .utf8)) ?? "(no log at \(log.path))")
        }
        self.port = port
    }

    /// The issuer, `http://localhost:PORT` (LemonLDAP::NG's SSO cookie needs a host name).
    var issuer: String { "http://localhost:\(port)" }
}

/// LemonLDAP::NG did not start: why, and its log (the tests fail with both; nothing is skipped).
enum LemonLDAPStartError: Error, Sendable, CustomStringConvertible {
    /// The portal did not come up. Run `scripts/setup` for its packages; the log says the rest.
    case notStarted(reason: String, log: String)

    var description: String {
        switch self {
        case .notStarted(let reason, let log):
            "LemonLDAP::NG did not start (\(reason)); scripts/setup installs its packages. Its log:\n\(log)"
        }
    }
}
