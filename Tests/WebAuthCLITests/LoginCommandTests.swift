import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// `webauth login`, `token`, `userinfo`, `status` and `logout` as a script uses them, against
/// the development provider in this process.
@Suite("webauth login and friends (the built binary)", .startsWebKit(minutes: 3))
struct LoginCommandTests {
    var webauth = WebAuthBinary()

    static let passwordScript = """
        steps:
          - fill: "#username"
            value: alice
          - fill: "#password"
            env: ALICE_PASSWORD
          - press_enter: "#password"
        """

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    func login(_ provider: OpenIDProvider, _ extra: [String] = [], script: String = passwordScript,
               environment: [String: String] = [:]) async throws -> WebAuthBinary.Run {
        try await webauth(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless",
                           "--script", try webauth.file("login-\(UUID().uuidString).yaml", script)] + extra, environment: environment)
    }

    @Test("login prints the summary without tokens; token, userinfo and status use the saved sign-in; logout ends it")
    func lifeOfASignIn() async throws {
        let provider = try await OpenIDProvider.start()
        let login = try await login(provider, ["--scope", "openid profile", "--scope", "offline_access"])
        #expect(login.status == 0, "stderr: \(login.stderr)")
        let summary = try JSONValue(parsing: login.stdout)
        #expect(summary["subject"] == .string(OpenIDProvider.User.alice.subject))
        #expect(summary["scopes"] == .array(["openid", "profile", "offline_access"].map { .string($0) }))
        #expect(summary["access_token_expires_at"]?.stringValue?.hasPrefix("20") == true)
        #expect(summary["id_token_claims"]?["iss"] == .string(provider.issuer))
        #expect(summary["has_refresh_token"] == .bool(true) && summary["access_token"] == nil && summary["refresh_token"] == nil, "no token without --show-tokens")
        #expect(summary["store"]?.stringValue?.hasPrefix("file:" + webauth.home.path) == true)

        let token = try await webauth(["token"])
        #expect(token.status == 0 && token.stdout.trimmingCharacters(in: .newlines).count == 43, "stderr: \(token.stderr)")
        let userinfo = try await webauth(["userinfo"])
        #expect(try JSONValue(parsing: userinfo.stdout)["email"] == .string(OpenIDProvider.User.alice.email))
        let status = try await webauth(["status"])
        #expect(status.status == 0, "stderr: \(status.stderr)")
        #expect(try JSONValue(parsing: status.stdout)["signed_in"] == .bool(true))

        let logout = try await webauth(["logout", "--headless"])
        #expect(logout.status == 0, "stderr: \(logout.stderr)")
        #expect(try JSONValue(parsing: logout.stdout) == .object(["signed_out": .bool(true), "provider_session_ended": .bool(true),
                                                                  "refresh_token_revoked": .bool(true)]))
        #expect(provider.logoutHints.count == 1)
        let after = try await webauth(["status"])
        #expect(after.status == 6, "stderr: \(after.stderr)")
        #expect(try JSONValue(parsing: after.stdout)["signed_in"] == .bool(false))
        let noToken = try await webauth(["token"])
        #expect(noToken.status == 6 && noToken.stderr.hasPrefix("Error: no saved sign-in") && noToken.stderr.contains("webauth login"),
                "stderr: \(noToken.stderr)")
    }

    @Test("--show-tokens prints them; token refreshes a stale access token and saves the rotated refresh token")
    func showTokensAndRefresh() async throws {
        let provider = try await OpenIDProvider.start(accessTokenLifetime: 30)  // within the 60 s tolerance: always due
        let login = try await login(provider, ["--show-tokens", "--profile", "work"])
        let summary = try JSONValue(parsing: login.stdout)
        let first = try #require(summary["access_token"]?.stringValue)
        #expect(summary["id_token"]?.stringValue?.hasPrefix("eyJ") == true)
        let token = try await webauth(["token", "--profile", "work"])
        #expect(token.status == 0 && !token.stdout.contains(first), "stderr: \(token.stderr)")
        #expect(provider.refreshCount == 1)
        let again = try await webauth(["token", "--profile", "work"])
        #expect(again.status == 0 && provider.refreshCount == 2, "the rotated refresh token was saved and used; stderr: \(again.stderr)")
        let other = try await webauth(["status"])
        #expect(other.status == 6, "profiles are separate; stderr: \(other.stderr)")
    }

    @Test("the person denying access exits 2; a provider error exits 3; an unreachable provider exits 4")
    func failureStatuses() async throws {
        let provider = try await OpenIDProvider.start()
        provider.faults = [.deny]
        let denied = try await login(provider)
        #expect(denied.status == 2 && denied.stderr.contains("access_denied"), "stderr: \(denied.stderr)")
        provider.faults = [.htmlErrorPage]
        let broken = try await login(provider)
        #expect(broken.status == 3 && broken.stderr.contains("HTTP 502"), "stderr: \(broken.stderr)")
        // Not a stopped provider: its port could go to another test's provider meanwhile.
        let closed = try PortReservation()  // bound, never listening: the connection is refused
        let down = try await webauth(["login", "--issuer", "http://127.0.0.1:\(closed.port)", "--client-id", "webauth-demo", "--headless"])
        #expect(down.status == 4 && down.stderr.hasPrefix("Error: sign-in failed: network error"), "stderr: \(down.stderr)")
        for run in [denied, broken, down] {
            #expect(run.stdout.isEmpty && run.stderr.split(separator: "\n").count == 1, "one line, no stack trace: \(run.stderr)")
        }
    }

    @Test("no redirect before --timeout exits 5; a failing script step exits 7 and names the step")
    func timeoutAndScriptFailure() async throws {
        let provider = try await OpenIDProvider.start()
        let timedOut = try await login(provider, ["--timeout", "1"], script: "steps: []")
        #expect(timedOut.status == 5, "stderr: \(timedOut.stderr)")
        let failing = try await login(provider, script: """
            step_timeout: 15
            steps:
              - fill: "#username"
                value: alice
              - click: "#no-such-button"
            """)
        #expect(failing.status == 7, "stderr: \(failing.stderr)")
        #expect(failing.stderr.contains("step 2 (click '#no-such-button') failed"), "stderr: \(failing.stderr)")
    }

    @Test("a literal password in a script is refused; secrets never appear in the output")
    func secrets() async throws {
        let provider = try await OpenIDProvider.start(clients: [
            .demo, OpenIDProvider.Client(clientID: "server-app", clientSecret: "very-secret-value", redirectURIs: ["com.example.webauth:/callback"]),
        ])
        let literal = try await login(provider, script: """
            steps:
              - fill: "#password"
                value: wonderland
            """)
        #expect(literal.status == 7 && literal.stderr.contains("a password field takes its value from env"))
        #expect(!literal.stderr.contains("wonderland"))
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "server-app", "--headless", "--verbose",
                                     "--script", try webauth.file("login.yaml", Self.passwordScript)],
                                    environment: ["WEBAUTH_CLIENT_SECRET": "very-secret-value"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        for secret in ["very-secret-value", OpenIDProvider.User.alice.password] {
            #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret))
        }
        #expect(run.stderr.contains("navigation captured"), "--verbose shows the navigation log")
    }

    @Test("usage errors exit 64 with one line", arguments: [
        (["login", "--client-id", "x"], "no provider"),
        (["login", "--issuer", "http://127.0.0.1:1"], "no client ID"),
        (["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x", "--param", "novalue"], "is not name=value"),
        (["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x", "--redirect-uri", "not a uri"], "cannot be used"),
        (["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x", "--redirect-uri", "com.example:/a/../cb"], "cannot be normalised"),
        (["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x", "--redirect-uri", "com.example:/c%zz"], "cannot be normalised"),
        (["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x", "--authorization-endpoint", "http://127.0.0.1:1/a"], "needs --token-endpoint"),
        (["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x", "--script", "/nonexistent.yaml"], "cannot read the login script"),
        (["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x", "--response-type", "magic"], "unknown response type"),
        (["login", "--timeout", "0"], "--timeout"),
        (["login", "--issuer", "htps://id.example.com", "--client-id", "x"], "is not an http(s) URL: unknown scheme 'htps' (did you mean 'https'?)"),
        (["login", "--issuer", "id.example.com", "--client-id", "x"], "has no scheme: write it as https://id.example.com"),
        (["login", "--issuer", "https://", "--client-id", "x"], "has no host"),
        (["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x", "--token-endpoint", "token", "--authorization-endpoint",
          "http://127.0.0.1:1/a"], "the token endpoint token has no scheme"),
        (["provider", "--host", "0.0.0.0"], "loopback"),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let run = try await webauth(arguments)
        #expect(run.status == 64, "stderr: \(run.stderr)")
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
    }

    @Test("a malformed login script is a usage error that says what is wrong", arguments: [
        ("steps: [{fill: '#a'}]", "fill and type need exactly one of"),
        ("steps: [{click: '#a', fill: '#b', value: x}]", "a step needs exactly one of"),
        ("steps: [{dance: '#a'}]", "a step needs exactly one of"),
        ("nothing: here", "unknown key 'nothing'"),
        ("step_timeout: 3", "missing 'steps'"),
        ("steps: [{fill: '#a', outbox: 'file:///etc/passwd'}]", "outbox must be an http(s) URL"),
        ("steps: [{clik: '#a'}]", "line 1, column 9: step 1: unknown key 'clik' (did you mean 'click'?)"),
        ("steps: []\nsetle_time: 3", "unknown key 'setle_time' (did you mean 'settle_time'?)"),
        ("steps:\n  - click: '#a'\n    value: x", "line 2, column 5: step 1: value goes with fill or type only, not with click"),
        ("steps: [click]", "line 1, column 9: step 1: must be a mapping (name: value)"),
        ("step_timeout: soon\nsteps: []", "line 1, column 15: step_timeout: must be a number"),
        ("steps:\n  - fill: '#a'\n    value: [", "is not valid: line "),
    ])
    func malformedScript(script: String, message: String) async throws {
        let run = try await webauth(["login", "--issuer", "http://127.0.0.1:1", "--client-id", "x",
                                     "--script", try webauth.file("bad.yaml", script)])
        #expect(run.status == 64 && run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
        for typeName in ["Mapping", "Node", "Swift.", "Double", "DecodingError", "CodingKeys"] {
            #expect(!run.stderr.contains(typeName), "no Swift type names: \(run.stderr)")
        }
    }
}

extension LoginCommandTests {
    @Test("a failed script leaves its screenshot, page facts and navigation log; --trace writes the log of a good run")
    func artifactsAndTrace() async throws {
        let provider = try await OpenIDProvider.start()
        let artifacts = webauth.home.appendingPathComponent("artifacts")
        let failing = try await login(provider, ["--artifacts", artifacts.path], script: """
            step_timeout: 5
            steps:
              - click: "#missing"
            """)
        #expect(failing.status == 7 && failing.stderr.contains("screenshot, page and navigation log in \(artifacts.path)"))
        let png = try Data(contentsOf: artifacts.appendingPathComponent("screenshot.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let page = try JSONValue(parsing: String(contentsOf: artifacts.appendingPathComponent("page.json"), encoding: .utf8))
        #expect(page["step"] == .string("step 1: click '#missing'") && page["title"] == .string("Sign in to the development provider"))

        let trace = webauth.home.appendingPathComponent("trace.json")
        let good = try await login(provider, ["--trace", trace.path])
        #expect(good.status == 0, "stderr: \(good.stderr)")
        let log = try JSONValue(parsing: String(contentsOf: trace, encoding: .utf8))
        guard case .array(let entries) = log else { Issue.record("not a list: \(log)"); return }
        #expect(entries.contains { $0["kind"] == .string("captured") && $0["value"]?.stringValue?.contains("code=<") == true },
                "the captured redirect is in the trace, its values redacted")
    }
}

extension LoginCommandTests {
    @Test("a provider that refuses the embedded view exits 3 and says so; --system-browser signs in with curl as the browser")
    func systemBrowser() async throws {
        var settings = DevProviderConfiguration()
        settings.clients = [OpenIDProvider.Client(clientID: "desktop-app",
                                                  redirectURIs: ["com.example.webauth:/callback", "http://127.0.0.1/callback"])]
        settings.faults = [.disallowedUserAgent]
        let provider = try await OpenIDProvider.start(configuration: settings)
        let refused = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "desktop-app", "--headless",
                                         "--script", try webauth.file("wait.yaml", "steps: []")])
        #expect(refused.status == 3 && refused.stderr.contains("refuses to sign in inside an embedded browser"), "stderr: \(refused.stderr)")

        // The "browser": log in with curl, then follow the redirect to the loopback listener.
        let browser = try webauth.executable("browser.sh", """
            #!/bin/sh
            location=$(curl -s -o /dev/null -w '%header{location}' -d username=alice -d password=wonderland "$1")
            curl -s "$location" | grep -q 'You can close this tab'
            """)
        let run = try await webauth(["login", "--issuer", provider.issuer, "--client-id", "desktop-app", "--system-browser",
                                     "--browser-command", browser, "--timeout", "60"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try JSONValue(parsing: run.stdout)["subject"] == .string(OpenIDProvider.User.alice.subject))
    }
}

extension LoginCommandTests {
    /// A login script for the provider's e-mail code page: alice's address, then the code from
    /// the provider's outbox.
    static func emailCodeScript(issuer: String) -> String {
        """
        steps:
          - fill: "#email"
            value: alice@example.com
          - click: "#send-code"
          - wait_for_text: We sent a code
          - fill: "#code"
            outbox: \(issuer)/outbox?email=alice@example.com
          - click: "#verify"
        """
    }

    @Test("a one-time-code script: email, the code from the provider's outbox, verify")
    func oneTimeCodeScript() async throws {
        var settings = DevProviderConfiguration()
        settings.loginMethod = .emailCode
        let provider = try await OpenIDProvider.start(configuration: settings)
        let run = try await login(provider, script: Self.emailCodeScript(issuer: provider.issuer))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(try JSONValue(parsing: run.stdout)["subject"] == .string(OpenIDProvider.User.alice.subject))
        #expect(provider.outbox.count == 1)
    }
}

extension LoginCommandTests {
    @Test("two webauth token processes at once with a stale token: one refresh, the same token printed by both")
    func concurrentTokenProcesses() async throws {
        let provider = try await OpenIDProvider.start(accessTokenLifetime: 30)  // due for refresh (60 s tolerance)
        let signedIn = try await login(provider)
        #expect(signedIn.status == 0, "stderr: \(signedIn.stderr)")
        provider.accessTokenLifetime = 3600  // a refreshed token is fresh: whoever comes second must use it
        async let first = webauth(["token"])
        async let second = webauth(["token"])
        let (a, b) = try await (first, second)
        #expect(a.status == 0 && b.status == 0, "stderr: \(a.stderr) \(b.stderr)")
        #expect(a.stdout == b.stdout && !a.stdout.isEmpty)
        #expect(provider.refreshCount == 1, "the lock on the saved sign-in made the second process use the first's refresh")
    }
}

extension LoginCommandTests {
    @Test("a plain http issuer off this machine is a usage error naming it; --allow-insecure-http or allow_insecure_http lets it through")
    func insecureIssuer() async throws {
        let issuer = "http://id.example.invalid"
        let refused = try await webauth(["login", "--issuer", issuer, "--client-id", "x", "--headless"])
        #expect(refused.status == 64, "stderr: \(refused.stderr)")
        #expect(refused.stderr.contains("issuer \(issuer) is not https") && refused.stderr.contains("--allow-insecure-http"),
                "stderr: \(refused.stderr)")
        let flag = try await webauth(["login", "--issuer", issuer, "--client-id", "x", "--headless", "--allow-insecure-http"])
        let config = try webauth.file("insecure.json", #"{"issuer": "\#(issuer)", "client_id": "x", "allow_insecure_http": true}"#)
        let file = try await webauth(["login", "--config", config, "--headless"])
        for run in [flag, file] {
            #expect(run.status == 4 && run.stderr.contains("network error talking to \(issuer)"), "stderr: \(run.stderr)")
        }
    }
}

extension LoginCommandTests {
    @Test("a wrong password exits 7 once the page settles, quoting the page; it and a timeout leave their artefacts")
    func settledAndTimedOutArtifacts() async throws {
        let provider = try await OpenIDProvider.start()
        let wrong = webauth.home.appendingPathComponent("wrong")
        let settled = try await login(provider, ["--artifacts", wrong.path, "--settle-time", "2"],
                                      environment: ["ALICE_PASSWORD": "not-the-password-5e2a"])
        #expect(settled.status == 7, "stderr: \(settled.stderr)")
        #expect(settled.stderr.contains("\"Wrong user name or password.\""), "stderr: \(settled.stderr)")
        #expect(settled.stderr.contains("screenshot, page and navigation log in \(wrong.path)"))
        #expect(settled.stderr.split(separator: "\n").count == 1 && !settled.stderr.contains("not-the-password-5e2a"))
        let page = try JSONValue(parsing: String(contentsOf: wrong.appendingPathComponent("page.json"), encoding: .utf8))
        #expect(page["visible_text"]?.stringValue?.contains("Wrong user name or password.") == true)
        #expect(page["steps_not_run"] == .array([]), "every step ran")

        let slow = webauth.home.appendingPathComponent("timeout")
        // The page has loaded (step 1) before the wait that times out: on two busy cores a cold
        // process can take seconds to show it, hence a generous --timeout.
        let timedOut = try await login(provider, ["--artifacts", slow.path, "--timeout", "15"], script: """
            steps:
              - wait_for: "#username"
              - wait_for: "#never-there"
              - click: "#sign-in"
            """)
        #expect(timedOut.status == 5, "stderr: \(timedOut.stderr)")
        #expect(timedOut.stderr.contains("screenshot, page and navigation log in \(slow.path)"), "stderr: \(timedOut.stderr)")
        let facts = try JSONValue(parsing: String(contentsOf: slow.appendingPathComponent("page.json"), encoding: .utf8))
        #expect(facts["step"] == .string("step 2: wait for '#never-there'"))
        #expect(facts["steps_not_run"] == .array([.string("step 3: click '#sign-in'")]))
        #expect(facts["title"] == .string("Sign in to the development provider"))
        for folder in [wrong, slow] {
            let png = try Data(contentsOf: folder.appendingPathComponent("screenshot.png"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let log = try JSONValue(parsing: String(contentsOf: folder.appendingPathComponent("navigation.json"), encoding: .utf8))
            guard case .array(let entries) = log else { Issue.record("not a list: \(log)"); continue }
            #expect(entries.contains { $0["kind"] == .string("load-committed") })
        }
    }
}

extension LoginCommandTests {
    @Test("--timeout bounds the whole command: a token endpoint that never answers ends with exit 5 and one line")
    func hungTokenEndpoint() async throws {
        let provider = try await OpenIDProvider.start()
        provider.faults = [.hangingTokenEndpoint]
        // Time enough for the page on two busy cores (the suite runs many at once): the token request is what must time out.
        let run = try await login(provider, ["--timeout", "45"])
        #expect(run.status == 5, "stderr: \(run.stderr)")
        #expect(run.stderr.hasPrefix("Error: sign-in failed: no answer from \(provider.issuer)/token within 45 s."), "stderr: \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stdout.isEmpty, "one line, no Foundation text: \(run.stderr)")
        await provider.stop()
    }
}

extension LoginCommandTests {
    @Test("messages describe, never dump: a refused refresh token, a bad provider configuration")
    func humanMessages() async throws {
        let provider = try await OpenIDProvider.start(accessTokenLifetime: 30)  // due for refresh (60 s tolerance)
        #expect(try await login(provider).status == 0)
        provider.faults = [.invalidGrant]
        let token = try await webauth(["token"])
        #expect(token.status == 6, "stderr: \(token.stderr)")
        #expect(token.stderr.contains("the provider refused the refresh token (invalid_grant"), "stderr: \(token.stderr)")
        let status = try await webauth(["status"])
        #expect(try JSONValue(parsing: status.stdout)["sign_in_again"]?.stringValue?.hasPrefix("the provider refused the refresh token") == true)
        let config = try webauth.file("provider.json", #"{"clients": [{"client_id": 5, "redirect_uris": ["a:/b"]}]}"#)
        let badProvider = try await webauth(["provider", "--config", config])
        #expect(badProvider.status == 64 && badProvider.stderr.contains("clients, item 1, client_id: must be text"), "stderr: \(badProvider.stderr)")
        for run in [token, status, badProvider] {
            #expect(!run.stderr.contains("refreshRejected") && !run.stdout.contains("refreshRejected") && !run.stderr.contains("typeMismatch"))
        }
    }
}

extension LoginCommandTests {
    // Pages made for them: a real captcha cannot run here; the passkey page's request gets NotAllowedError (no passkey configured).
    @Test("a page only a person can pass (a captcha, a passkey prompt) exits 8 and says what it wants")
    func needsPerson() async throws {
        let pages = try await LocalHTTPServer.start(host: "127.0.0.1") { request in
            request.path == "/captcha"
                ? .html("<p>Prove you are human.</p><input id='username'><div class='g-recaptcha' data-sitekey='k'></div>")
                : .html("""
                    <p>Use your security key.</p>
                    <button id='key' onclick="navigator.credentials.get({ publicKey: { challenge: new Uint8Array(32) } })">Use a passkey</button>
                    """)
        }
        let base = pages.baseURL.absoluteString
        for (path, script, words) in [("/captcha", "steps: [{fill: '#username', value: alice}, {wait_for: '#password'}]", "asks for a reCAPTCHA captcha"),
                                      ("/passkey", "{steps: [{click: '#key'}], settle_time: 0.5}", "the page asks for a passkey (to sign in with a passkey or security key for 127.0.0.1)")] {
            let run = try await webauth(["login", "--issuer", base, "--client-id", "webauth-demo", "--authorization-endpoint", base + path,
                                         "--token-endpoint", base + "/token", "--headless",
                                         "--script", try webauth.file("needs-person\(path.dropFirst()).yaml", script)])
            #expect(run.status == 8, "\(path): \(run.stderr)")
            #expect(run.stderr.contains(words) && run.stderr.contains("Sign in as a person"), "\(path): \(run.stderr)")
        }
    }
}

extension LoginCommandTests {
    @Test("a login script's passkey credentials file that others can read stops the sign-in with status 1, naming the file and the fix")
    func passkeyFileReadableByOthers() async throws {
        let pages = try await LocalHTTPServer.start(host: "localhost") { _ in .html("<p>Use a passkey</p>") }
        let base = pages.baseURL.absoluteString
        let credentials = webauth.home.appendingPathComponent("passkeys.json").path
        _ = FileManager.default.createFile(atPath: credentials, contents: Data(#"{"version":1,"credentials":[]}"#.utf8),
                                           attributes: [.posixPermissions: 0o644])
        let script = try webauth.file("passkey-file.yaml", "{passkey: {credentials_file: '\(credentials)'}, steps: [{click: '#never'}]}")
        let run = try await webauth(["login", "--issuer", base, "--client-id", "webauth-demo", "--authorization-endpoint", base + "/authorize",
                                     "--token-endpoint", base + "/token", "--headless", "--script", script])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("the passkey credentials file \(credentials) holds private keys and others can read it"), "\(run.stderr)")
        #expect(run.stderr.contains("chmod 600 \(credentials)"))
    }
}
