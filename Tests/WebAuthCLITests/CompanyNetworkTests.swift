import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth login` in a company network: the page's languages, a real proxy (tinyproxy) and a
/// private CA (an HTTPS front with a CA of its own), against the development provider in this process.
@Suite("webauth login in a company network (the built binary)", .startsWebKit(minutes: 3))
struct CompanyNetworkTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    func login(_ provider: OpenIDProvider, _ extra: [String] = [], environment: [String: String] = [:]) async throws -> WebAuthBinary.Run {
        try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--store", "none",
                           "--script", try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)] + extra,
                          environment: environment)
    }

    @Test("the page asks for the locale's languages, like gettext: LANGUAGE's list first, and sends no ui_locales")
    func languagesFromTheLocale() async throws {
        let provider = try await OpenIDProvider.start()
        let run = try await login(provider, environment: ["LANGUAGE": "it:es", "LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let asked = try #require(provider.languagesAsked.first)
        #expect(asked.acceptLanguage?.hasPrefix("it") == true && asked.acceptLanguage?.contains("es") == true,
                "Accept-Language: \(asked.acceptLanguage ?? "none")")
        #expect(asked.acceptLanguage?.contains("de") == false)
        #expect(asked.uiLocales == nil)
    }

    @Test("--language (repeatable, comma lists) sets the page's Accept-Language and sends ui_locales")
    func languagesGiven() async throws {
        let provider = try await OpenIDProvider.start()
        let run = try await login(provider, ["--language", "fr-CA,fr", "--language", "en"], environment: ["LANGUAGE": "it", "LANG": "it_IT.UTF-8"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let asked = try #require(provider.languagesAsked.first)
        #expect(asked.acceptLanguage?.hasPrefix("fr-CA") == true && asked.acceptLanguage?.contains("it") == false,
                "Accept-Language: \(asked.acceptLanguage ?? "none")")
        #expect(asked.uiLocales == "fr-CA fr en")
    }

    @Test("language in --config does the same; a tag that is not one is a usage error")
    func languagesInTheConfigurationFile() async throws {
        let provider = try await OpenIDProvider.start()
        let config = try webauth.file("config-\(UUID().uuidString).json", #"{"language": ["pt-BR"]}"#)
        let run = try await login(provider, ["--config", config])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(provider.languagesAsked.first?.uiLocales == "pt-BR")
        #expect(provider.languagesAsked.first?.acceptLanguage?.hasPrefix("pt-BR") == true)
        let wrong = try await login(provider, ["--language", "fr;q=1"])
        #expect(wrong.status == 64 && wrong.stderr.contains("not a language tag"), "stderr: \(wrong.stderr)")
    }

    @Test("--proxy: the login page and the token request both go through it, loopback provider included")
    func proxyGiven() async throws {
        let provider = try await OpenIDProvider.start()
        let proxy = try await Tinyproxy.start(in: webauth.home)
        let run = try await login(provider, ["--proxy", proxy.url])
        let log = await proxy.stop()
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(log.contains("GET \(provider.issuer)/authorize?"), "the page went through the proxy; its log: \(log)")
        #expect(log.contains("POST \(provider.issuer)/token "), "the token request went through the proxy; its log: \(log)")
    }

    @Test("--proxy: the login script's outbox value is read through it too")
    func proxyForTheScriptsOutbox() async throws {
        var settings = DevProviderConfiguration()
        settings.loginMethod = .emailCode
        let provider = try await OpenIDProvider.start(configuration: settings)
        let proxy = try await Tinyproxy.start(in: webauth.home)
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--store", "none",
                                     "--proxy", proxy.url, "--script", try webauth.file("code.yaml", LoginCommandTests.emailCodeScript(issuer: provider.issuer))])
        let log = await proxy.stop()
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(log.contains("GET \(provider.issuer)/outbox?email="), "the outbox was read through the proxy; its log: \(log)")
    }

    @Test("by default the environment's proxy, like curl: http_proxy takes loopback hosts, no_proxy lets them go direct")
    func proxyFromTheEnvironment() async throws {
        let provider = try await OpenIDProvider.start()
        let proxy = try await Tinyproxy.start(in: webauth.home)
        let run = try await login(provider, environment: ["http_proxy": proxy.url, "no_proxy": "example.com"])
        let direct = try await login(provider, environment: ["http_proxy": proxy.url, "no_proxy": "example.com,127.0.0.1"])
        let log = await proxy.stop()
        #expect(run.status == 0 && direct.status == 0, "stderr: \(run.stderr)\n\(direct.stderr)")
        #expect(log.components(separatedBy: "GET \(provider.issuer)/authorize?").count == 2, "one page through the proxy: \(log)")
        #expect(log.components(separatedBy: "POST \(provider.issuer)/token ").count == 2, "one token request through the proxy: \(log)")
    }

    @Test("a proxy that asks for credentials (407): the user from --proxy, the password from WEBAUTH_PROXY_PASSWORD; a wrong one is a clear error")
    func proxyCredentials() async throws {
        let provider = try await OpenIDProvider.start()
        let password = "pr0xy-\(UUID().uuidString.prefix(8))"
        let proxy = try await Tinyproxy.start(in: webauth.home, user: "carol", password: password)
        let withUser = "http://carol@127.0.0.1:\(proxy.port)"
        let run = try await login(provider, ["--proxy", withUser], environment: ["WEBAUTH_PROXY_PASSWORD": password])
        let wrong = try await login(provider, ["--proxy", withUser], environment: ["WEBAUTH_PROXY_PASSWORD": "not-" + password])
        let none = try await login(provider, ["--proxy", proxy.url])
        let onCommandLine = try await login(provider, ["--proxy", "http://carol:\(password)@127.0.0.1:\(proxy.port)"])
        let log = await proxy.stop()
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(log.contains("POST \(provider.issuer)/token "), "the token request passed the proxy's check: \(log)")
        // tinyproxy answers a wrong password with 401, not 407: the command ends at discovery, with tinyproxy's answer.
        #expect(wrong.status == 3 && wrong.stderr.contains("HTTP 401"), "stderr: \(wrong.stderr)")
        #expect(none.status == 64 && none.stderr.contains("asks for a user name and password, and none were given"), "stderr: \(none.stderr)")
        #expect(onCommandLine.status == 64 && onCommandLine.stderr.contains("WEBAUTH_PROXY_PASSWORD"), "stderr: \(onCommandLine.stderr)")
        for output in [run, wrong, none, onCommandLine].flatMap({ [$0.stdout, $0.stderr] }) {
            #expect(!output.contains(password), "the proxy password is never printed")
        }
    }

    /// `login` against `provider` through the HTTPS front `front` (its endpoints; the ID token's issuer stays the provider's).
    func login(_ provider: OpenIDProvider, through front: TLSFront, _ extra: [String]) async throws -> WebAuthBinary.Run {
        try await login(provider, ["--authorization-endpoint", front.url + "/authorize", "--token-endpoint", front.url + "/token",
                                   "--jwks-uri", front.url + "/jwks", "--verbose"] + extra)
    }

    @Test("--ca-file: a provider whose certificate the CA file's authority signed signs in (page and token request), the lock says why")
    func privateCA() async throws {
        let provider = try await OpenIDProvider.start()
        let front = try await TLSFront(backendPort: URL(string: provider.issuer)!.port!)
        let run = try await login(provider, through: front, ["--ca-file", front.caFile])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("(TLS: validByCAFile)"), "the page's TLS state says the CA file vouched for it; stderr: \(run.stderr)")
        #expect(run.stderr.contains("the CA file vouched for 127.0.0.1's certificate: loading the page again"), "stderr: \(run.stderr)")
        #expect(provider.requestCount("/token") == 1)
        let config = try webauth.file("config-\(UUID().uuidString).json", #"{"ca_file": "\#(front.caFile)"}"#)
        let fromFile = try await login(provider, through: front, ["--config", config])
        await front.stop()
        #expect(fromFile.status == 0, "stderr: \(fromFile.stderr)")
    }

    @Test("without --ca-file, or with another authority's, the private CA's provider fails with the TLS error")
    func privateCARefused() async throws {
        let provider = try await OpenIDProvider.start()
        let front = try await TLSFront(backendPort: URL(string: provider.issuer)!.port!)
        let other = try await TLSFront(backendPort: URL(string: provider.issuer)!.port!)
        let without = try await login(provider, through: front, [])
        let wrongAuthority = try await login(provider, through: front, ["--ca-file", other.caFile])
        for run in [without, wrongAuthority] {
            #expect(run.status == 4 && run.stderr.contains("TLS certificate of 127.0.0.1 is not valid"), "stderr: \(run.stderr)")
        }
        #expect(provider.requestCount("/authorize") == 0 && provider.requestCount("/token") == 0)
        let notPEM = try await login(provider, through: front, ["--ca-file", try webauth.file("not.pem", "hello")])
        await front.stop()
        await other.stop()
        #expect(notPEM.status == 64 && notPEM.stderr.contains("not.pem"), "stderr: \(notPEM.stderr)")
    }
}

/// The commands that use a saved sign-in (`token`, `userinfo`, the credential helpers, `logout`)
/// in a company network: they take no network flags, so the configuration file gives the route.
@Suite("commands on a saved sign-in in a company network (the built binary)", .startsWebKit(minutes: 3))
struct SavedSignInNetworkTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
        // No proxy of the machine's (a CI runner may set one): the configuration file is the only route given.
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] { webauth.environment[name] = "" }
        webauth.environment["XDG_CONFIG_HOME"] = webauth.home.appendingPathComponent("config").path
    }

    /// Signs alice in to `provider` (with `extra` options and `environment`), saved in the sandbox's file store.
    func signIn(_ provider: OpenIDProvider, _ extra: [String] = [], environment: [String: String] = [:]) async throws {
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless",
                                     "--script", try webauth.file("login-\(UUID().uuidString).yaml", LoginCommandTests.passwordScript)] + extra,
                                    environment: environment)
        try #require(run.status == 0, "stderr: \(run.stderr)")
    }

    @Test("proxy in the configuration file: token's refresh and userinfo go through it, as login's requests do")
    func proxyFromTheConfigurationFile() async throws {
        let provider = try await OpenIDProvider.start()
        try await signIn(provider)
        let proxy = try await Tinyproxy.start(in: webauth.home)
        try webauth.configure(#"{"proxy": "\#(proxy.url)"}"#)
        let token = try await webauth(["token", "--refresh"])
        let userinfo = try await webauth(["userinfo"])
        let log = await proxy.stop()
        #expect(token.status == 0 && provider.refreshCount == 1, "stderr: \(token.stderr)")
        #expect(userinfo.status == 0, "stderr: \(userinfo.stderr)")
        #expect(log.contains("POST \(provider.issuer)/token "), "the refresh went through the proxy; its log: \(log)")
        #expect(log.contains("GET \(provider.issuer)/userinfo "), "userinfo went through the proxy; its log: \(log)")
    }

    @Test("proxy in the configuration file: git-credential and kubernetes-credential refresh through it")
    func credentialHelpersThroughTheConfiguredProxy() async throws {
        let provider = try await OpenIDProvider.start()
        try await signIn(provider)
        let proxy = try await Tinyproxy.start(in: webauth.home)
        try webauth.configure(#"{"proxy": "\#(proxy.url)", "credential_hosts": {"git.example.com": "default"}}"#)
        /// `webauth arguments` with `input` on its standard input, as git gives it.
        func helper(_ arguments: [String], input: String = "") async throws -> WebAuthBinary.Run {
            try await webauth.run(URL(fileURLWithPath: "/bin/sh"), ["-c", #"printf %s "$0" | "$@""#, input, WebAuthBinary.binary.path] + arguments)
        }
        let request = "protocol=https\nhost=git.example.com\n"
        /// git's erase of the token it was given: the next helper must refresh it.
        func erase() async throws -> WebAuthBinary.Run {
            let token = try await webauth(["token"]).stdout.trimmingCharacters(in: .newlines)
            return try await helper(["git-credential", "erase"], input: request + "password=\(token)\n\n")
        }
        let erased = try await erase()
        let kubernetes = try await helper(["kubernetes-credential"])
        let erasedAgain = try await erase()
        let git = try await helper(["git-credential", "get"], input: request + "\n")
        let log = await proxy.stop()
        for run in [erased, kubernetes, erasedAgain, git] { #expect(run.status == 0, "stderr: \(run.stderr)") }
        #expect(git.stdout.contains("password=") && kubernetes.stdout.contains("ExecCredential"))
        #expect(provider.refreshCount == 2)
        #expect(log.components(separatedBy: "POST \(provider.issuer)/token ").count == 3, "both refreshes went through the proxy; its log: \(log)")
    }

    @Test("revocations take the route too: login --proxy revokes the sign-in it replaces through it, logout through the configuration file's")
    func revocationsThroughTheProxy() async throws {
        let provider = try await OpenIDProvider.start()
        try await signIn(provider)
        let proxy = try await Tinyproxy.start(in: webauth.home)
        try await signIn(provider, ["--proxy", proxy.url])
        try webauth.configure(#"{"proxy": "\#(proxy.url)"}"#)
        let logout = try await webauth(["logout", "--local"])
        let log = await proxy.stop()
        #expect(logout.status == 0 && logout.stdout.contains(#""refresh_token_revoked":true"#), "stdout: \(logout.stdout) stderr: \(logout.stderr)")
        #expect(log.components(separatedBy: "POST \(provider.issuer)/revoke ").count == 3, "both revocations went through the proxy; its log: \(log)")
    }

    @Test("ca_file in the configuration file: token refreshes from a provider of a private CA; another authority there, a TLS error that names ca_file")
    func caFileFromTheConfigurationFile() async throws {
        let provider = try await OpenIDProvider.start()
        let front = try await TLSFront(backendPort: URL(string: provider.issuer)!.port!)
        let other = try await TLSFront(backendPort: URL(string: provider.issuer)!.port!)
        try await signIn(provider, ["--authorization-endpoint", front.url + "/authorize", "--token-endpoint", front.url + "/token",
                                    "--jwks-uri", front.url + "/jwks", "--ca-file", front.caFile])
        // The configuration file describes the network now: it wins over the route the sign-in saved.
        try webauth.configure(#"{"ca_file": "\#(other.caFile)"}"#)
        let without = try await webauth(["token", "--refresh"])
        try webauth.configure(#"{"ca_file": "\#(front.caFile)"}"#)
        let with = try await webauth(["token", "--refresh"])
        await front.stop()
        await other.stop()
        #expect(without.status == 4 && without.stderr.contains("TLS error talking to \(front.url)"), "stderr: \(without.stderr)")
        #expect(without.stderr.contains("ca_file"), "the message says what to do; stderr: \(without.stderr)")
        #expect(with.status == 0 && provider.refreshCount == 1, "stderr: \(with.stderr)")
    }

    /// The saved sign-in of the sandbox's file store, as text.
    func savedText(_ name: String = "default") throws -> String {
        try String(contentsOf: webauth.home.appendingPathComponent("state/webauthsession/\(name).json"), encoding: .utf8)
    }

    @Test("login --ca-file, then userinfo and token --refresh with no flags: the sign-in kept its route; --ca-file of another authority overrides it")
    func caFileKeptWithTheSignIn() async throws {
        let provider = try await OpenIDProvider.start()
        let front = try await TLSFront(backendPort: URL(string: provider.issuer)!.port!)
        let other = try await TLSFront(backendPort: URL(string: provider.issuer)!.port!)
        provider.serve(as: front.url)  // discovery, the token and userinfo endpoints: all https, of the private CA
        try await signIn(provider, ["--ca-file", front.caFile])
        let userinfo = try await webauth(["userinfo"])
        let token = try await webauth(["token", "--refresh"])
        let overridden = try await webauth(["userinfo", "--ca-file", other.caFile])
        await front.stop()
        await other.stop()
        #expect(userinfo.status == 0 && userinfo.stdout.contains(OpenIDProvider.User.alice.subject), "stderr: \(userinfo.stderr)")
        #expect(token.status == 0 && provider.refreshCount == 1, "stderr: \(token.stderr)")
        #expect(overridden.status == 4 && overridden.stderr.contains("TLS error talking to \(front.url)"), "stderr: \(overridden.stderr)")
        let route = try #require(try JSONValue(parsing: savedText())["state"]?["client"]?["route"], "the saved client keeps its route")
        #expect(route["ca_file"]?.stringValue == front.caFile, "\(route)")
    }

    @Test("login --proxy with a user: token --refresh and userinfo go through that proxy with no flags; the saved sign-in holds no password")
    func proxyKeptWithTheSignIn() async throws {
        let provider = try await OpenIDProvider.start()
        let password = "pr0xy-\(UUID().uuidString.prefix(8))"
        let proxy = try await Tinyproxy.start(in: webauth.home, user: "carol", password: password)
        let environment = ["WEBAUTH_PROXY_PASSWORD": password]
        try await signIn(provider, ["--proxy", "http://carol@127.0.0.1:\(proxy.port)", "--no-proxy", "intranet.example"], environment: environment)
        let token = try await webauth(["token", "--refresh"], environment: environment)
        let userinfo = try await webauth(["userinfo"], environment: environment)
        let log = await proxy.stop()
        #expect(token.status == 0 && provider.refreshCount == 1, "stderr: \(token.stderr)")
        #expect(userinfo.status == 0, "stderr: \(userinfo.stderr)")
        #expect(log.contains("POST \(provider.issuer)/token "), "the refresh went through the proxy; its log: \(log)")
        #expect(log.contains("GET \(provider.issuer)/userinfo "), "userinfo went through the proxy; its log: \(log)")
        let saved = try savedText()
        #expect(!saved.contains(password), "the saved sign-in never holds the proxy's password")
        let route = try #require(try JSONValue(parsing: saved)["state"]?["client"]?["route"])
        #expect(route["proxy"]?.stringValue == "http://carol@127.0.0.1:\(proxy.port)" && route["no_proxy"] == .array([.string("intranet.example")]),
                "\(route)")
    }

    @Test("a PKCS#12 client certificate's path is kept with the sign-in, its password never")
    func clientCertificateKeptWithoutItsPassword() async throws {
        let provider = try await OpenIDProvider.start()
        let password = "p12-\(UUID().uuidString.prefix(8))"
        let front = try await TLSFront(backendPort: URL(string: provider.issuer)!.port!, clientCertificatePassword: password)
        let certificate = front.workdir.appendingPathComponent("client.p12").path
        let environment = ["WEBAUTH_CLIENT_CERTIFICATE_PASSWORD": password]
        try await signIn(provider, ["--authorization-endpoint", front.url + "/authorize", "--token-endpoint", front.url + "/token",
                                    "--jwks-uri", front.url + "/jwks", "--ca-file", front.caFile, "--client-certificate", certificate],
                         environment: environment)
        let token = try await webauth(["token", "--refresh"], environment: environment)
        await front.stop()
        #expect(token.status == 0 && provider.refreshCount == 1, "stderr: \(token.stderr)")
        let saved = try savedText()
        #expect(!saved.contains(password), "the saved sign-in never holds the PKCS#12 password")
        #expect(try JSONValue(parsing: saved)["state"]?["client"]?["route"]?["client_certificate"]?.stringValue == certificate)
    }
}

/// `tls_front.py`: an HTTPS front for the development provider whose certificate a new CA of its
/// own signed (`caFile`); with a `clientCertificatePassword`, one that requires a client
/// certificate the CA signed (its files in `workdir`, the PKCS#12 one opened by that password).
struct TLSFront {
    let server: PythonFixtureServer

    var port: Int { server.port }
    /// Where its certificates are (and, with client certificates, `clients.log`).
    var workdir: URL { server.workdir }
    var caFile: String { workdir.appendingPathComponent("ca.pem").path }
    var url: String { "https://127.0.0.1:\(port)" }

    init(backendPort: Int, clientCertificatePassword: String? = nil) async throws {
        let mutualTLS = clientCertificatePassword.map { ["--require-client-certificate", $0] } ?? []
        server = try await PythonFixtureServer(script: "tls_front", arguments: [String(backendPort)] + mutualTLS)
    }

    /// Stops the front and waits until it is gone.
    func stop() async { await server.stop() }
}
