import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `--negotiate-site` and `negotiate_sites` in `--config`: a provider whose authorization endpoint
/// wants Kerberos (`kerberos_site.py --front`: a realm of its own with a real KDC, and a front that
/// passes GET /authorize to the development provider only with a SPNEGO token for alice's ticket).
@Suite("webauth login with Kerberos asked by the provider's page (the built binary)", .startsWebKit(minutes: 3))
struct NegotiateCommandTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    @Test("--negotiate-site or negotiate_sites, with --profile: the page gets alice's ticket; an untrusted http site gets the page's 401; no --profile or a site with a path is a usage error")
    func negotiateSites() async throws {
        let provider = try await OpenIDProvider.start()
        let front = try await PythonFixtureServer(script: "kerberos_site", arguments: ["--front", String(URL(string: provider.issuer)!.port!)])
        // The realm's client files, and alice's ticket; the page's requests go direct.
        let kerberos = ["KRB5_CONFIG": front.workdir.appendingPathComponent("krb5.conf").path,
                        "KRB5CCNAME": "FILE:" + front.workdir.appendingPathComponent("ccache").path]
        let site = front.url("").absoluteString
        let script = try webauth.file("login.yaml", LoginCommandTests.passwordScript)
        func login(_ extra: [String]) async throws -> WebAuthBinary.Run {
            try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--store", "none",
                               "--script", script, "--authorization-endpoint", site + "/authorize", "--token-endpoint", provider.issuer + "/token",
                               "--jwks-uri", provider.issuer + "/jwks", "--proxy", "none"] + extra, environment: kerberos)
        }
        let principals = { (try? String(contentsOf: front.workdir.appendingPathComponent("principals.log"), encoding: .utf8)) ?? "" }

        let trusted = try await login(["--negotiate-site", site, "--profile", "kerberos-flag"])
        #expect(trusted.status == 0, "stderr: \(trusted.stderr)")
        #expect(principals().contains("GET /authorize alice@TEST.EXAMPLE"), "the page presented alice's ticket: \(principals())")
        let config = try webauth.file("negotiate.json", #"{"negotiate_sites": ["\#(site)"]}"#)
        let fromConfig = try await login(["--config", config, "--profile", "kerberos-config"])
        #expect(fromConfig.status == 0, "stderr: \(fromConfig.stderr)")

        let untrusted = try await login(["--profile", "kerberos-untrusted"])
        #expect(untrusted.status == 3 && untrusted.stderr.contains("HTTP 401"), "stderr: \(untrusted.stderr)")
        let ephemeral = try await login(["--negotiate-site", site])
        #expect(ephemeral.status == 64 && ephemeral.stderr.contains("--negotiate-site needs --profile"), "stderr: \(ephemeral.stderr)")
        let withPath = try await login(["--negotiate-site", site + "/authorize", "--profile", "kerberos-path"])
        #expect(withPath.status == 64 && withPath.stderr.contains("http(s)://host[:port]"), "stderr: \(withPath.stderr)")
        await front.stop()
        #expect(principals().split(separator: "\n").allSatisfy { $0.hasSuffix(" alice@TEST.EXAMPLE") })
        #expect(provider.requestCount("/token") == 2, "two sign-ins got through, the others sent nothing")
    }
}
