import DevProvider
import Foundation
import Testing
import TestSupport

/// README's commands and quick starts as a newcomer runs them: a fresh `HOME` and nothing else
/// (no `XDG_*` folders, no display, no keyring), in README's order; and README stays short. Each command ends with its documented
/// status; each failure is one line on stderr whose advice is true for that command; and what
/// is left on disk is only the state folder README documents.
@Suite("A newcomer walks README with no display and no keyring (the built binary)", .serialized, .startsWebKit(minutes: 5))
struct NewcomerTests {
    let newcomer = Newcomer()

    @Test("README stays the front door: at most Newcomer.readmeLineLimit lines, what it is on its third line, its two first commands as CI runs them, its quick starts in itself")
    func readmeIsTheFrontDoor() throws {
        let readme = try Guides.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= Newcomer.readmeLineLimit,
                "README.md has \(lines.count) lines, over \(Newcomer.readmeLineLimit): move the detail to docs/ or the DocC catalogs and link it from the map")
        #expect(lines.first == "# WebAuthSession" && lines.dropFirst(2).first?.contains("OpenID Connect") == true, "\(lines.prefix(3))")
        #expect(Guides.blocks("sh", in: readme).first == """
            scripts/setup && swift run webauth demo      # set up, then sign in through the real engine
            scripts/setup && swift test                  # set up, then run every test
            """)
        for marker in ["<!-- quick start: terminal -->", "<!-- quick start: ci -->", "<!-- install the package -->"] {
            #expect(readme.contains(marker), "README.md holds \(marker)")
        }
    }

    @Test("README's first quick start as pasted, with no display: the provider, login by the device grant (a phone approves), userinfo, token, logout")
    func quickStartTerminal() async throws {
        var approved = false
        let run = try await newcomer.paste(try Guides.block(after: "<!-- quick start: terminal -->")) { stderr in
            guard !approved, let instructions = DeviceInstructions(stderr) else { return }
            approved = true
            let page = try await DevicePhone().approve(instructions.userCode, at: instructions.verificationURI)
            #expect(page.contains("You can go back to your device"))
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(approved, "login offered the device grant: \(run.stderr)")
        #expect(run.stdout.contains("\"signed_in\":true"), "stdout: \(run.stdout)")
        #expect(run.stdout.components(separatedBy: "\"email\":\"alice@example.com\"").count == 3, "userinfo, then curl with the token: \(run.stdout)")
        #expect(run.stdout.contains("\"provider_session_ended\":true"), "stdout: \(run.stdout)")
        try newcomer.expectOnlyDocumentedState()
    }

    @Test("README's third quick start as pasted, with no display: a login script, a headless sign-in, the token through exec")
    func quickStartCI() async throws {
        let run = try await newcomer.paste(try Guides.block(after: "<!-- quick start: ci -->"))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("\"signed_in\":true") && run.stdout.contains("\"email\":\"alice@example.com\""), "stdout: \(run.stdout)")
        #expect(!run.stdout.contains("wonderland") && !run.stderr.contains("wonderland"), "no password in any output")
        #expect(try FileManager.default.contentsOfDirectory(atPath: newcomer.work.path) == ["login.yaml"], "no failure artefacts")
        try newcomer.expectOnlyDocumentedState()
    }

    @Test("demo, then login, token, userinfo, status, logout (headless by itself), logout --local: statuses, one-line errors, nothing left in HOME but the state folder")
    func readmeInOrder() async throws {
        let demo = try await newcomer(["demo"])
        #expect(demo.status == 0, "stderr: \(demo.stderr)")
        #expect(demo.stdout.contains("\"sub\":\"248289761001\""), "stdout: \(demo.stdout)")
        #expect(!demo.stderr.contains("Error"), "stderr: \(demo.stderr)")

        let provider = try await OpenIDProvider.start()
        let login = try await newcomer.login(provider)
        #expect(login.status == 0, "stderr: \(login.stderr)")
        #expect(login.stdout.contains("\"store\":\"file:"), "no keyring: the file store; stdout: \(login.stdout)")
        #expect(Newcomer.lines(login.stderr).count == 1, "one line says where the sign-in went: \(login.stderr)")

        let token = try await newcomer(["token"])
        #expect(token.status == 0, "stderr: \(token.stderr)")
        #expect(Newcomer.lines(token.stdout).count == 1 && token.stderr.isEmpty, "stdout: \(token.stdout); stderr: \(token.stderr)")
        let userinfo = try await newcomer(["userinfo"])
        #expect(userinfo.status == 0 && userinfo.stdout.contains("\"email\":\"alice@example.com\""), "stderr: \(userinfo.stderr)")
        let status = try await newcomer(["status"])
        #expect(status.status == 0 && status.stdout.contains("\"signed_in\":true"), "stderr: \(status.stderr)")

        // No display: the provider's page headless, by itself (it was exit 3, advising how to sign in).
        let logout = try await newcomer(["logout"])
        #expect(logout.status == 0, "stderr: \(logout.stderr)")
        #expect(logout.stdout.contains("\"provider_session_ended\":true"), "stdout: \(logout.stdout)")
        #expect(Newcomer.lines(logout.stderr) == ["No display here for the provider's sign-out page (DISPLAY and WAYLAND_DISPLAY are not set): ending its session headless (--headless)."],
                "stderr: \(logout.stderr)")

        try #require(try await newcomer.login(provider).status == 0)
        let local = try await newcomer(["logout", "--local"])
        #expect(local.status == 0 && local.stdout.contains("\"provider_session_ended\":false"), "stderr: \(local.stderr)")
        #expect(local.stderr.isEmpty, "stderr: \(local.stderr)")

        // Signed out: each command that needs the sign-in says so in one line, and its advice is true.
        for command in [["token"], ["userinfo"], ["logout", "--local"]] {
            let run = try await newcomer(command)
            #expect(run.status == 6, "\(command): stderr: \(run.stderr)")
            Newcomer.expectOneLineFailure(run, command, saying: "no saved sign-in named 'default'", advice: "Run `webauth login` first.")
        }
        let signedOut = try await newcomer(["status"])
        #expect(signedOut.status == 6 && signedOut.stdout.contains("\"signed_in\":false"), "stderr: \(signedOut.stderr)")

        try newcomer.expectOnlyDocumentedState()
    }

    @Test("login --headless without --script: exit 7 once the page settles, with its words and one line on what to add")
    func headlessLoginWithoutScript() async throws {
        let provider = try await OpenIDProvider.start()
        // Before, this waited out the whole --timeout, then advised more time (exit 5).
        let run = try await newcomer(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--settle-time", "1",
                                      "--timeout", "120"])
        #expect(run.status == 7, "stderr: \(run.stderr)")
        Newcomer.expectOneLineFailure(run, ["login"], saying: "the provider's page stood still for 1.0 seconds with no redirect: 'Sign in to the development provider'",
                                      // No display: no window to drop --headless for.
                                      advice: "A headless sign-in needs --script FILE to fill in the page (or --flow device to sign in on another device, as there is no display here).")
        #expect(!run.stderr.contains("login script's last step"), "there was no script: \(run.stderr)")
        #expect(try newcomer.scratchTemporaryFiles().isEmpty, "no artifacts were asked for")
        try newcomer.expectOnlyDocumentedState()
    }

    @Test("a hanging token endpoint ends token and env at --timeout with exit 5, advising --timeout", arguments: [["token"], ["env"]])
    func hangingTokenEndpoint(command: [String]) async throws {
        let provider = try await OpenIDProvider.start()
        try #require(try await newcomer.login(provider).status == 0)
        provider.faults = [.hangingTokenEndpoint]
        defer { provider.faults = [] }
        // --min-valid longer than the token lives: a refresh, which hangs. Before: exit 4 after 30 s, "Socket I/O timed out".
        let run = try await newcomer(command + ["--refresh", "--timeout", "2"])
        #expect(run.status == 5, "stderr: \(run.stderr)")
        Newcomer.expectOneLineFailure(run, command, saying: "no answer from \(provider.issuer)/token within 2", advice: "Retry, or allow more time with --timeout.")
        #expect(run.stdout.isEmpty, "nothing printed: \(run.stdout)")
    }

    @Test("every command that talks to the provider takes --timeout, with one meaning",
          arguments: ["login", "record", "logout", "token", "exec", "env", "userinfo", "kubernetes-credential"])
    func timeoutOption(command: String) async throws {
        let help = try await newcomer([command, "--help"])
        #expect(help.status == 0, "stderr: \(help.stderr)")
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--timeout <") && text.contains("Seconds the whole command may take"), "\(command) --help: \(help.stdout)")
    }

    @Test("a failure's advice names only what the command has: no --verbose for status, token, userinfo; never 'the message above'")
    func adviceIsTrue() async throws {
        let state = newcomer.home.appendingPathComponent(".local/state/webauthsession")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: state.appendingPathComponent("default.json"))
        for command in [["status"], ["token"], ["userinfo"], ["env"]] {
            let run = try await newcomer(command)
            #expect(run.status == 1, "\(command): a damaged sign-in is a local failure; stderr: \(run.stderr)")
            Newcomer.expectOneLineFailure(run, command, saying: "default.json")
            #expect(!run.stderr.contains("--verbose"), "\(command) has no --verbose: \(run.stderr)")
        }
        let logout = try await newcomer(["logout"])
        #expect(logout.status == 1, "stderr: \(logout.stderr)")
        Newcomer.expectOneLineFailure(logout, ["logout"], saying: "default.json")
    }

    @Test("--flow browser with no browser says why once: 'xdg-open exited with status 3', not 'could not be opened' twice")
    func noBrowser() async throws {
        let provider = try await OpenIDProvider.start()
        let bin = newcomer.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for (name, status) in [("xdg-open", 3), ("gio", 4)] {
            // close-on-exec: FileManager's descriptor could be inherited by a child another test forks,
            // and the script's exec then fails with ETXTBSY (sh's 126, seen once under a CPU hog)
            _ = try WebAuthBinary.writeExecutable(at: bin.appendingPathComponent(name).path, "#!/bin/sh\nexit \(status)\n")
        }
        let run = try await newcomer(["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--flow", "browser", "--timeout", "2"],
                                     environment: ["PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        #expect(run.status == 5, "nobody opened the URL; stderr: \(run.stderr)")
        let line = try #require(Newcomer.lines(run.stderr).first { $0.hasPrefix("No browser could be opened") }, "stderr: \(run.stderr)")
        #expect(line == "No browser could be opened here (xdg-open exited with status 3; gio exited with status 4); open the URL above yourself.")
    }
}
