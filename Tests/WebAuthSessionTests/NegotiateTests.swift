import Foundation
import OpenIDConnect
import TestSupport
import Testing
@testable import WebAuthSession

extension EngineTests {
    /// Kerberos asked by the page (`WWW-Authenticate: Negotiate`, SPNEGO), against a realm of the
    /// test's own: a real KDC (krb5kdc), a service key, and a ticket kinit got for alice (see
    /// Fixtures/kerberos_site.py). WebKit's network process reads the Kerberos configuration, the
    /// credential cache and libsoup's trusted sites from its environment when it starts, so each
    /// test runs in a child process of its own, which sets them before its engine starts.
    @Suite("Negotiate (Kerberos) asked by the page")
    struct Negotiate {
        /// The realm and its site; the child's environment names its configuration and `ccache`
        /// (a cache file, or one that does not exist: no ticket), and no proxy.
        static func site(ccache: String = "ccache") async throws -> PythonFixtureServer {
            let site = try await PythonFixtureServer(script: "kerberos_site")
            setenv("KRB5_CONFIG", site.workdir.appendingPathComponent("krb5.conf").path, 1)
            setenv("KRB5CCNAME", "FILE:" + site.workdir.appendingPathComponent(ccache).path, 1)
            for proxy in ["http_proxy", "https_proxy", "all_proxy", "HTTPS_PROXY", "ALL_PROXY"] { unsetenv(proxy) }
            return site
        }

        /// A headless sign-in at `site`'s `/negotiate`, in an engine that trusts `sites` for Negotiate,
        /// with a profile directory: WebKit does not do Negotiate in an ephemeral session.
        static func signIn(_ site: PythonFixtureServer, trusting sites: [URL], persistent: Bool = true) async throws(WebAuthenticationError) -> RedirectCallback {
            try WebAuthEngine.configure(EngineConfiguration(display: .virtual, trustedNegotiateSites: sites))
            var options = WebAuthenticationOptions()
            options.presentation = .headless
            options.timeout = .seconds(60)
            if persistent { options.websiteData = .persistent(profileDirectory: site.workdir.appendingPathComponent("profile")) }
            let redirectURI = try! RedirectURI("com.example:/cb")
            return try await WebAuthenticationSession(url: site.url("/negotiate"), redirectURI: redirectURI, options: options).start()
        }

        /// What a child's sign-in ended with, as its last line of standard error says it.
        static func outcome(_ result: ExitTest.Result?) -> String {
            let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            return errors.split(separator: "\n").last { $0.hasPrefix("outcome: ") }.map(String.init) ?? "no outcome; stderr: \(errors)"
        }

        /// In the child: signs in at `site` trusting `sites`, writes the outcome on standard error,
        /// and stops the site (an `exit` would leave it holding the child's pipes).
        static func report(_ site: PythonFixtureServer, trusting sites: [URL], persistent: Bool = true) async {
            let outcome: String
            do { outcome = "callback user=\(try await signIn(site, trusting: sites, persistent: persistent)["user"] ?? "none")" } catch { outcome = "\(error)" }
            FileHandle.standardError.write(Data("outcome: \(outcome)\n".utf8))
            site.kill()
        }

        @Test("a trusted http site's Negotiate is answered from the user's ticket (in a child process)")
        func answeredFromTheTicket() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let site = try await Negotiate.site()
                await Negotiate.report(site, trusting: [site.url("")])
            }
            #expect(Self.outcome(result) == "outcome: callback user=alice@TEST.EXAMPLE")
        }

        @Test("with no ticket, the page's 401 ends the sign-in with providerErrorPage, not a hang (in a child process)")
        func noTicket() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let site = try await Negotiate.site(ccache: "no-such-ccache")
                await Negotiate.report(site, trusting: [site.url("")])
            }
            #expect(Self.outcome(result).hasPrefix("outcome: the provider answered the authorization request with HTTP 401"), "\(Self.outcome(result))")
        }

        @Test("an http site that is not trusted gets no ticket: libsoup answers Negotiate for https only (in a child process)")
        func untrustedSite() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let site = try await Negotiate.site()
                await Negotiate.report(site, trusting: [])
            }
            #expect(Self.outcome(result).hasPrefix("outcome: the provider answered the authorization request with HTTP 401"), "\(Self.outcome(result))")
        }

        @Test("an ephemeral session does no Negotiate, ticket or not: WebKit turns it off there (in a child process)")
        func ephemeralSession() async throws {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let site = try await Negotiate.site()
                await Negotiate.report(site, trusting: [site.url("")], persistent: false)
            }
            #expect(Self.outcome(result).hasPrefix("outcome: the provider answered the authorization request with HTTP 401"), "\(Self.outcome(result))")
        }
    }
}

/// How ``EngineConfiguration/trustedNegotiateSites`` becomes libsoup's `SOUP_GSSAPI_TRUSTED_URIS`.
@Suite("Sites trusted for Negotiate (the variable)")
struct NegotiateTrustTests {
    @Test("each site is written with its port, after the environment's own list")
    func written() {
        let sites = [URL(string: "https://sso.example.com")!, URL(string: "http://127.0.0.1:8080/")!]
        #expect(NegotiateTrust.value(for: sites, existing: nil) == "https://sso.example.com:443,http://127.0.0.1:8080")
        #expect(NegotiateTrust.value(for: sites, existing: "https://intranet") == "https://intranet,https://sso.example.com:443,http://127.0.0.1:8080")
        #expect(NegotiateTrust.value(for: [], existing: "https://intranet") == nil)
    }

    @Test("a site with a path, a query or another scheme is an invalid option", arguments: [
        "https://sso.example.com/login", "https://sso.example.com?realm=x", "ftp://sso.example.com", "sso.example.com",
    ])
    func refused(text: String) {
        // WebAuthEngine.configure checks with this before it takes the configuration.
        #expect(throws: WebAuthenticationError.self) { try NegotiateTrust.validate([URL(string: text)!]) }
        #expect(throws: Never.self) { try NegotiateTrust.validate([URL(string: "https://sso.example.com:8443")!]) }
    }
}

extension EngineTests.Negotiate {
    @Test("once the engine has started, configure takes the configuration it started with again and refuses another")
    func configureAfterStart() async throws {
        _ = TestEngine.options()  // the engine tests' configuration: a private Xvfb
        await Task { @WebKitActor in }.value  // the first use of the engine's actor starts it
        try WebAuthEngine.configure(EngineConfiguration(display: .virtual))
        #expect(throws: WebAuthenticationError.invalidOption(.engineAlreadyStarted)) {
            try WebAuthEngine.configure(EngineConfiguration(display: .virtual, trustedNegotiateSites: [URL(string: "http://127.0.0.1:8080")!]))
        }
    }
}
