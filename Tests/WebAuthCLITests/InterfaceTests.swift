import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing

/// The command line as an interface: `--version`, `doctor`, the JSON outputs' schemas, and
/// `scripts/install` with the man page, completions and the Docker helper's symlink.
@Suite("webauth --version, doctor, JSON schemas, scripts/install (the built binary)", .startsWebKit(minutes: 10))
struct InterfaceTests {
    var webauth = WebAuthBinary()

    /// The checkout: docs/schemas, scripts.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    /// Checks `output` against `docs/schemas/NAME.schema.json` with Python's jsonschema; returns its complaints.
    func schemaErrors(_ output: String, _ name: String) async throws -> String {
        let document = try webauth.file("\(name)-\(UUID().uuidString).json", output)
        let check = try await webauth.run(Self.root.appendingPathComponent("scripts/check-json-schema"),
                                          [Self.root.appendingPathComponent("docs/schemas/\(name).schema.json").path, document])
        return check.status == 0 ? "" : check.stdout + check.stderr + " (status \(check.status))"
    }

    @Test("--version prints the one version")
    func version() async throws {
        let run = try await webauth(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.wholeMatch(of: /\d+\.\d+\.\d+\n/) != nil, "stdout: \(run.stdout)")
    }

    /// Before: `webauth tokn` said only "Unexpected argument".
    @Test("an unknown command: exit 64 and one line naming the nearest command, or the commands there are")
    func unknownCommand() async throws {
        let near = try await webauth(["tokn"])
        #expect(near.status == 64 && near.stderr == "Error: unknown command 'tokn' (did you mean 'token'?). See `webauth help`.\n",
                "stderr: \(near.stderr)")
        let far = try await webauth(["frobnicate", "--flag"])
        #expect(far.status == 64 && far.stderr.hasPrefix("Error: unknown command 'frobnicate' (known: batch, broker, demo,")
                    && far.stderr.split(separator: "\n").count == 1, "stderr: \(far.stderr)")
        #expect(try await webauth(["help", "token"]).status == 0, "help and its topics still work")
    }

    @Test("every JSON output matches its schema, with one type per field (refresh_token too)")
    func schemas() async throws {
        let provider = try await OpenIDProvider.start()
        let script = try webauth.file("login.yaml", LoginCommandTests.passwordScript)
        let login = ["login", "--issuer", provider.issuer, "--client-id", "webauth-demo", "--headless", "--script", script]
        var outputs: [(command: String, schema: String, stdout: String)] = []
        for (arguments, schema) in [(login + ["--show-tokens"], "login"), (login, "login"), (["status"], "status"), (["userinfo"], "userinfo"),
                                    (["logout", "--headless"], "logout"), (["status"], "status"), (["doctor", "--json"], "doctor"),
                                    (["demo"], "demo")] {
            let run = try await webauth(arguments)
            #expect(run.status == 0 || arguments == ["status"], "\(arguments): \(run.stderr)")
            outputs.append((arguments.prefix(2).joined(separator: " "), schema, run.stdout))
        }
        #expect(try JSONValue(parsing: outputs[0].stdout)["refresh_token"]?.stringValue != nil, "--show-tokens: the token as text")
        #expect(try JSONValue(parsing: outputs[1].stdout)["has_refresh_token"] == .bool(true))
        for output in outputs {
            let errors = try await schemaErrors(output.stdout, output.schema)
            #expect(errors.isEmpty, "\(output.command): \(errors)")
        }
    }

    @Test("the schemas are strict: a field of the wrong type or an unknown field fails")
    func strictSchemas() async throws {
        #expect(try await !schemaErrors(#"{"signed_out": true, "provider_session_ended": "yes", "refresh_token_revoked": true}"#, "logout").isEmpty)
        #expect(try await !schemaErrors(#"{"signed_in": true, "issuer": "i", "client_id": "c", "store": "s", "has_refresh_token": true, "id_token_issued": true, "refresh_token": true}"#,
                                        "login").isEmpty)
        #expect(try await !schemaErrors(#"{"signed_in": false, "store": "s", "extra": 1}"#, "status").isEmpty)
    }

    @Test("doctor: what is fine, what to fix; exit 1 only when a check fails; proxy credentials hidden")
    func doctor() async throws {
        let proxy = ["https_proxy": "http://me:proxy-password-77@proxy.invalid:3128"]
        let fine = try await webauth(["doctor", "--json"], environment: proxy)
        #expect(fine.status == 0, "stderr: \(fine.stderr)")
        let report = try JSONValue(parsing: fine.stdout)
        guard case .array(let checks) = report["checks"] else { Issue.record("no checks: \(fine.stdout)"); return }
        let byName = Dictionary(uniqueKeysWithValues: checks.map { ($0["name"]?.stringValue ?? "", $0) })
        #expect(Set(byName.keys) == ["webkitgtk", "display", "keyring", "state_folder", "proxy"])
        #expect(byName["webkitgtk"]?["status"] == .string("ok"))
        #expect(byName["display"]?["status"] == .string("warning"), "no display here, but Xvfb")
        #expect(byName["proxy"]?["status"] == .string("warning") && byName["proxy"]?["fix"]?.stringValue?.contains("no_proxy") == true)
        #expect(!fine.stdout.contains("proxy-password-77"))

        let broken = try await webauth(["doctor"], environment: ["PATH": "/nonexistent"])
        #expect(broken.status == 1, "stdout: \(broken.stdout)")
        #expect(broken.stdout.contains("FAILED   display: no display") && broken.stdout.contains("fix: install Xvfb (apt-get install xvfb)"),
                "stdout: \(broken.stdout)")
        #expect(broken.stdout.contains("ok       webkitgtk: WebKitGTK 2."))
    }

    @Test("doctor hides a proxy password given with no scheme (curl's user:password@host[:port]), as text and as JSON", arguments: [
        "alice:proxy-password-78@proxy.invalid:3128", "alice:proxy-password-78@proxy.invalid",
    ])
    func doctorSchemelessProxy(value: String) async throws {
        for arguments in [["doctor"], ["doctor", "--json"]] {
            let run = try await webauth(arguments, environment: ["https_proxy": value, "ALL_PROXY": value])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stdout.contains("alice:<") && run.stdout.contains("proxy.invalid"), "the proxy is still named: \(run.stdout)")
            #expect(!run.stdout.contains("proxy-password-78") && !run.stderr.contains("proxy-password-78"),
                    "\(arguments): \(run.stdout)\n\(run.stderr)")
        }
    }

    /// Before: with WEBAUTH_BINARY it still ran `swift build` for the man page, in the checkout.
    @Test("scripts/install puts the binary, its man pages (written by the binary) and the completions under a prefix, with no Swift on PATH")
    func install() async throws {
        let prefix = webauth.home.appendingPathComponent("prefix")
        let run = try await webauth.run(URL(fileURLWithPath: "/bin/bash"), [Self.root.appendingPathComponent("scripts/install").path, prefix.path],
                                        environment: ["WEBAUTH_BINARY": WebAuthBinary.binary.path, "PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let version = try await webauth.run(prefix.appendingPathComponent("bin/webauth"), ["--version"])
        #expect(version.status == 0 && run.stderr.contains("installed webauth \(version.stdout.trimmingCharacters(in: .newlines)) in"))
        let docker = prefix.appendingPathComponent("bin/docker-credential-webauth").path
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: docker) == "webauth", "Docker's helper name, a symlink beside webauth")
        let manual = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/webauth.1"), encoding: .utf8)
        #expect(manual.contains(".Dt WEBAUTH 1") && manual.contains("doctor") && manual.contains(".Xr webauth-login 1"),
                "the man page: \(manual.prefix(300))")
        let login = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/webauth-login.1"), encoding: .utf8)
        #expect(login.contains(".Dt WEBAUTH-LOGIN 1") && login.contains(".It \\-\\-settle\\-time") && login.contains(".Sh SYNOPSIS"),
                "one page per command: \(login.prefix(300))")
        let pages = try FileManager.default.contentsOfDirectory(atPath: prefix.appendingPathComponent("share/man/man1").path)
        #expect(pages.count == 19 && pages.contains("webauth-register.1") && pages.contains("webauth-record.1") && pages.contains("webauth-git-credential.1") && pages.contains("webauth-broker.1") && !pages.contains("webauth-manual.1"),
                "\(pages.sorted())")
        // The broker's D-Bus activation file and systemd user unit, naming the installed
        // engine (the broker needs it, so they start it, not webauth or webauth-tokens).
        let activation = try String(contentsOf: prefix.appendingPathComponent("share/dbus-1/services/org.webauthsession.Broker.service"), encoding: .utf8)
        #expect(activation.contains("Name=org.webauthsession.Broker\nExec=\(prefix.path)/lib/webauth/webauth-engine broker\nSystemdService=webauth-broker.service"), "\(activation)")
        let unit = try String(contentsOf: prefix.appendingPathComponent("lib/systemd/user/webauth-broker.service"), encoding: .utf8)
        #expect(unit.contains("BusName=org.webauthsession.Broker\nExecStart=\(prefix.path)/lib/webauth/webauth-engine broker"), "\(unit)")
        for executable in ["webauth-tokens", "webauth-engine"] {
            #expect(FileManager.default.isExecutableFile(atPath: prefix.appendingPathComponent("lib/webauth/\(executable)").path), "\(executable) under lib/webauth")
        }
        let rendered = try await webauth.run(URL(fileURLWithPath: "/usr/bin/man"), ["-l", prefix.appendingPathComponent("share/man/man1/webauth-token.1").path],
                                             environment: ["MANPAGER": "cat", "MANWIDTH": "100"])
        #expect(rendered.status == 0 && rendered.stdout.contains("--min-valid") && !rendered.stderr.contains("warning"),
                "man renders it: \(rendered.stderr)")
        // lintian renders each page with groff's warnings on; an item whose term filled
        // the help's column up to its text (--settle-time <seconds>) left an empty line there.
        #expect(login.contains(".It \\-\\-settle\\-time <seconds>\nFail when the page stays still"), "the term and its text: \(login)")
        for page in pages {
            let checked = try await webauth.run(URL(fileURLWithPath: "/usr/bin/man"),
                                                ["--warnings", "-l", "-Tutf8", "-Z", prefix.appendingPathComponent("share/man/man1/\(page)").path],
                                                environment: ["MANWIDTH": "80"])
            #expect(checked.status == 0 && checked.stderr.isEmpty, "\(page): \(checked.stderr)")
        }
        for (path, marker) in [("share/bash-completion/completions/webauth", "complete"), ("share/zsh/site-functions/_webauth", "#compdef webauth"),
                               ("share/fish/vendor_completions.d/webauth.fish", "complete -c 'webauth'")] {
            let text = try String(contentsOf: prefix.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains(marker) && text.contains("logout") && text.contains("record"), "\(path)")
        }
    }
}
