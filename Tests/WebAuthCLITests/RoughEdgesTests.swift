import DevProvider
import Foundation
import Testing
import TestSupport

/// The rough edges a newcomer found, each as they met it: the built binary in a
/// fresh `HOME` with no display and no keyring (``Newcomer``), against the real development provider.
@Suite("A newcomer's rough edges (the built binary)", .startsWebKit(minutes: 5))
struct RoughEdgesTests {
    let newcomer = Newcomer()

    @Test("4: login of a saved profile reuses its provider and client; 'run login' names the profile it is about")
    func loginAgainReusesTheSavedClient() async throws {
        let provider = try await OpenIDProvider.start()
        let script = newcomer.root.appendingPathComponent("login.yaml")
        try LoginCommandTests.passwordScript.write(to: script, atomically: true, encoding: .utf8)
        let first = try await newcomer(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--profile", "ci",
                                        "--headless", "--script", script.path])
        try #require(first.status == 0, "stderr: \(first.stderr)")
        // Before: exit 64, "no client ID: give --client-id, or client_id (clientId) in --config...".
        let again = try await newcomer(["login", "--profile", "ci", "--headless", "--script", script.path])
        #expect(again.status == 0, "stderr: \(again.stderr)")
        #expect(again.stdout.contains("\"client_id\":\"webauth-demo\"") && again.stdout.contains("\"issuer\":\"\(provider.issuer)\""), "stdout: \(again.stdout)")

        for command in [["token"], ["userinfo"], ["logout", "--local"]] {
            let run = try await newcomer(command + ["--profile", "nobody"])
            #expect(run.status == 6, "\(command): stderr: \(run.stderr)")
            #expect(run.stderr.hasSuffix(". Run `webauth login --profile nobody` first.\n"), "\(command): stderr: \(run.stderr)")
        }
    }

    @Test("3: docs/broker.md's machine with no desktop, as pasted: a private bus, a broker started by hand with --allow-scripts, /usr/bin/python3 and a script")
    func brokerWithoutDesktop() async throws {
        try Guides.block(after: "<!-- broker python -->", language: "python")
            .write(to: newcomer.work.appendingPathComponent("sign_in.py"), atomically: true, encoding: .utf8)
        // Before: the guide never said how to start a broker by hand, nor that its examples need a display or a script.
        let run = try await newcomer.paste(try Guides.block(after: "<!-- broker without a desktop -->"))
        let log = (try? String(contentsOf: newcomer.work.appendingPathComponent("broker.log"), encoding: .utf8)) ?? ""
        #expect(run.status == 0, "stderr: \(run.stderr)\nbroker: \(log)")
        #expect(run.stdout.contains(" (account work)\n") && run.stdout.contains("GetToken gives the same token: True"), "stdout: \(run.stdout)")
        #expect(!log.contains("wonderland") && !run.stdout.contains("wonderland"), "no password in any output")
    }

    @Test("5: one truth about logout's redirect URI: saved with the sign-in (logout --help, What is saved), not a known limit")
    func logoutRedirectURIIsSaved() async throws {
        let help = try await newcomer(["logout", "--help"])
        #expect(help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("else the saved sign-in's"), "\(help.stdout)")
        let guide = try Guides.text("docs/command-line.md"), limits = try Guides.text("docs/known-limits.md")
        #expect(guide.contains("redirect URI (also the post-logout redirect URI)"), "What is saved says it is saved")
        // Before: Known limits said "`webauth logout` needs the post-logout redirect URI (...): the saved sign-in does not record it".
        #expect(!limits.contains("does not record the redirect URI"))
        #expect(!limits.contains("`webauth logout` needs the post-logout redirect URI"))
    }

    @Test("7: logout with the provider down: a network error (4), advice for a dead provider, no GLib error domain")
    func logoutWithTheProviderDown() async throws {
        let provider = try await OpenIDProvider.start()
        try #require(try await newcomer.login(provider).status == 0)
        await provider.stop()
        // Held so that its connections are refused, rather than answered (or never answered: a 300 s wait seen once) by
        // another test's server that took the port; best effort, as a closing connection may still hold the port a moment.
        let down = try? PortReservation(port: URL(string: provider.issuer)!.port!)
        let run = try await newcomer(["logout"])
        withExtendedLifetime(down) {}
        // Before: exit 3, "... Connection refused (g-io-error-quark 39). ... give logout a --script that answers its page."
        #expect(run.status == 4, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("\"signed_out\":true"), "stdout: \(run.stdout)")
        #expect(!run.stderr.contains("quark") && !run.stderr.contains("--script"), "stderr: \(run.stderr)")
        #expect(run.stderr.hasSuffix(". The saved sign-in is gone; the provider could not be reached: end its session on its site once it answers.\n"),
                "stderr: \(run.stderr)")
    }

    @Test("8: KUBERNETES_EXEC_INFO that is not JSON: a usage error with no Swift type in it")
    func kubernetesExecInfoNotJSON() async throws {
        let run = try await newcomer(["kubernetes-credential"], environment: ["KUBERNETES_EXEC_INFO": "{not json"])
        #expect(run.status == 64, "stderr: \(run.stderr)")
        // Before: "KUBERNETES_EXEC_INFO is not JSON: ParseError(message: \"DecodingError.dataCorrupted: ...\")".
        Newcomer.expectOneLineFailure(run, ["kubernetes-credential"], saying: "KUBERNETES_EXEC_INFO is not JSON: ",
                                      advice: "Run the plugin from a Kubernetes client, or unset the variable.")
        for swiftName in ["ParseError", "DecodingError", "message:", "Context("] {
            #expect(!run.stderr.contains(swiftName), "stderr: \(run.stderr)")
        }
    }

    @Test("10: a login script's unset $VAR is a usage error before anything starts (no request, no page, no artifacts)")
    func scriptVariableCheckedFirst() async throws {
        let script = newcomer.root.appendingPathComponent("login.yaml")
        try "steps:\n  - fill: \"#username\"\n    value: alice\n  - fill: \"#password\"\n    env: NOT_SET_ANYWHERE\n"
            .write(to: script, atomically: true, encoding: .utf8)
        // Nothing answers on port 1: a command that went to the provider first would fail with exit 4.
        let run = try await newcomer(["login", "--issuer", "http://127.0.0.1:1", "--client-id", "webauth-demo", "--headless", "--script", script.path])
        // Before: exit 7 once the page had loaded, with a screenshot folder: "step 2 ... the environment variable NOT_SET_ANYWHERE is not set".
        #expect(run.status == 64, "stderr: \(run.stderr)")
        Newcomer.expectOneLineFailure(run, ["login"], saying: "the login script \(script.path) reads $NOT_SET_ANYWHERE, which is not set",
                                      advice: "Set it (export NOT_SET_ANYWHERE=...), or change the script's env: value.")
        #expect(try newcomer.scratchTemporaryFiles().isEmpty, "no artifacts: no page was opened")
    }

    @Test("11: the commands that only use a sign-in offer no --ephemeral and no --config in --store's help; --min-valid's help is sentences",
          arguments: [["token"], ["env"], ["exec"], ["status"], ["userinfo"], ["git-credential"], ["docker-credential"]])
    func tokenSideHelp(command: [String]) async throws {
        let help = try await newcomer(command + ["--help"])
        #expect(help.status == 0, "stderr: \(help.stderr)")
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!text.contains("--ephemeral"), "\(command): \(text)")
        let store = try #require(text.range(of: "--store <store>").map { String(text[$0.upperBound...].prefix(250)) })
        #expect(!store.contains("--config"), "\(command): \(store)")
        if ["token", "env", "exec"].contains(command[0]) {
            #expect(text.contains("--min-valid <seconds> Refresh first when the token expires within this many seconds (default: 60). When "), "\(command): \(text)")
        }
    }

    @Test("13: docker-credential-webauth with an unknown action suggests a help that exists")
    func dockerUnknownAction() async throws {
        let webauth = WebAuthBinary()
        let helper = webauth.home.appendingPathComponent("docker-credential-webauth")
        try FileManager.default.createSymbolicLink(at: helper, withDestinationURL: WebAuthBinary.binary)
        let run = try await webauth.run(helper, ["lst"])
        #expect(run.status == 64, "stderr: \(run.stderr)")
        // Before: ArgumentParser's "See 'docker-credential --help'", a program that does not exist.
        #expect(run.stderr == "Error: unknown action 'lst' (did you mean 'list'?). See `webauth docker-credential --help`.\n", "stderr: \(run.stderr)")
        #expect(run.stdout == "unknown action 'lst' (did you mean 'list'?)\n", "Docker shows stdout: \(run.stdout)")
        let help = try await webauth(["docker-credential", "--help"])
        #expect(help.status == 0 && help.stdout.contains("get, list, erase, store or version"), "stderr: \(help.stderr)")
    }

    @Test("6: --flow browser's loopback redirect is registered for the demo client (RFC 8252 §7.3); demo --help lists only the flows it has")
    func browserFlowAgainstTheDevelopmentProvider() async throws {
        let provider = try await OpenIDProvider.start()
        // The "browser": fetches the URL it is given as a browser would, and notes the provider's answer.
        let answer = newcomer.root.appendingPathComponent("answer")
        // Written close-on-exec (WebAuthBinary.executable): a child another test forks meanwhile would make its exec fail with ETXTBSY.
        let browser = URL(fileURLWithPath: try WebAuthBinary().executable("browser", "#!/bin/sh\ncurl -s -o /dev/null -w '%{http_code}' \"$1\" > '\(answer.path)'\n"))
        // Nobody signs in in that browser: the login waits out its --timeout (exit 5) once the page was fetched.
        let run = try await newcomer(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--flow", "browser",
                                      "--browser-command", browser.path, "--timeout", "10"])
        #expect(run.status == 5, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"), "stderr: \(run.stderr)")
        // Before: 400, "Invalid redirect URI".
        #expect(try String(contentsOf: answer, encoding: .utf8) == "200", "the provider's answer to the browser")

        let help = try await newcomer(["demo", "--help"])
        #expect(help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("(values: embedded, device; default: embedded)"), "\(help.stdout)")
    }

    @Test("14: in a terminal, the device grant is reminded of every 10 s, as the page is (util-linux script gives the terminal)")
    func deviceGrantReminder() async throws {
        let provider = try await OpenIDProvider.start()
        let output = newcomer.root.appendingPathComponent("terminal")
        // Nobody approves the code: the login waits out its --timeout, past the first reminder.
        let command = "'\(WebAuthBinary.binary.path)' login --issuer \(provider.issuer) --client-id webauth-demo --flow device --timeout 12"
        let child = try ChildProcess("/usr/bin/script", ["-qfec", command, "/dev/null"], environment: newcomer.environment,
                                     stdout: .file(output.path), stderr: .null)
        let status = await child.exitStatus()
        let terminal = try String(contentsOf: output, encoding: .utf8)
        #expect(status == 5, "terminal: \(terminal)")
        // Before: the code, then nothing until the timeout.
        #expect(terminal.contains("still waiting for the sign-in on the other device (10 s)"), "terminal: \(terminal)")
    }

    @Test("15: the command-line guide's demo sample is what the demo prints (the issuer in the callback in full); --verbose prints each navigation once")
    func demoAsREADMEShowsIt() async throws {
        let run = try await newcomer(["demo", "--verbose"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = Newcomer.lines(run.stderr)
        let issuer = try #require(lines.first.flatMap { $0.range(of: "OpenID provider at ") }.map { String(lines[0][$0.upperBound...]) })
        let encoded = try #require(issuer.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))))
        let captured = try #require(lines.first { $0.contains("navigation captured com.example.webauth:/callback?code=") })
        #expect(captured.hasSuffix("&iss=\(encoded)"), "\(captured)")
        let guide = try Guides.text("docs/command-line.md")
        // Before: the guide showed `iss=<30>`.
        #expect(guide.contains("navigation captured com.example.webauth:/callback?code=<43>&state=<43>&iss=http%3A%2F%2F127.0.0.1%3A34325\n"))
        // Before: each decision came twice, as the library's debug record and as the narrator's line.
        #expect(!run.stderr.contains("debug WebAuthSession: decision="), "stderr: \(run.stderr)")
        let navigations = lines.filter { $0.contains("] navigation ") }
        #expect(navigations.contains { $0.contains("navigation allowed \(issuer)/logout?") }, "the sign-out's navigations are followed too: \(navigations)")
    }
}
