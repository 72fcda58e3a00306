import DevProvider
import Foundation
import WebAuthSupport
import OpenIDConnect
import TestSupport
import Testing
@testable import WebAuthFront

/// `webauth`'s shortcut: `token` and `kubernetes-credential` with a token that is still fresh, and
/// `--version`, answered before any large library loads, with the bytes `webauth-tokens` prints;
/// everything else handed on as it was given. A `webauth` copied alone into a folder shows which:
/// what it hands on fails there (no `webauth-tokens` beside it), so what it prints, the shortcut printed.
@Suite("webauth's shortcut: a fresh token with the bytes of webauth-tokens, everything else handed on", .startsWebKit(minutes: 3))
struct TokenShortcutTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    /// `webauth` alone in a folder of its own.
    func aloneFront() async throws -> URL {
        let folder = webauth.home.appendingPathComponent("alone")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let alone = folder.appendingPathComponent("webauth")
        // cp(1): a descriptor this process opened for writing could reach a child another test forks (ETXTBSY).
        let copied = try await webauth.run(URL(fileURLWithPath: "/bin/cp"), [WebAuthBinary.binary.path, alone.path])
        try #require(copied.status == 0, "cp: \(copied.stderr)")
        return alone
    }

    /// `webauth-tokens` of the build, which answers when the shortcut does not.
    var tokenCommands: URL { WebAuthBinary.binary.deletingLastPathComponent().appendingPathComponent("webauth-tokens") }

    /// Runs `executable arguments` with the file `input` on stdin, as git and Docker give their requests.
    func run(_ executable: URL, _ arguments: [String], input: String) async throws -> WebAuthBinary.Run {
        let file = try webauth.file("input-\(UUID().uuidString)", input)
        return try await webauth.run(URL(fileURLWithPath: "/bin/sh"), ["-c", #"f="$0"; "$@" < "$f""#, file, executable.path] + arguments)
    }

    /// Maps git's and Docker's hosts of these tests to the default profile.
    func mapHelperHosts() throws {
        try webauth.configure(#"{"credentials": {"credential_hosts": {"git.example.com": "default", "registry.example.com": "default"}}, "store": "file"}"#)
    }

    @Test("token in each format and option spelling, kubernetes-credential for v1 and v1beta1, --version: the shortcut alone prints what webauth-tokens prints, and refreshes nothing")
    func sameBytes() async throws {
        let (provider, tokens) = try await webauth.signedIn()
        let alone = try await aloneFront()
        let execInfo = #"{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","spec":{"interactive":false}}"#
        let cases: [([String], [String: String])] = [
            (["token"], [:]), (["token", "--format", "json"], [:]), (["token", "--format=header"], [:]),
            (["token", "--min-valid", "120", "--profile", "default", "--format", "raw"], [:]), (["token"], ["WEBAUTH_PROFILE": "default"]),
            (["kubernetes-credential"], [:]), (["kubernetes-credential", "--profile=default"], ["KUBERNETES_EXEC_INFO": execInfo]),
            (["--version"], [:]),
        ]
        for (arguments, environment) in cases {
            let shortcut = try await webauth.run(alone, arguments, environment: environment)
            let full = try await webauth.run(tokenCommands, arguments, environment: environment)
            #expect(shortcut.status == 0 && full.status == 0 && !shortcut.stdout.isEmpty && shortcut.stdout == full.stdout,
                    "\(arguments): the shortcut printed \(shortcut.stdout) (\(shortcut.stderr)), webauth-tokens \(full.stdout) (\(full.stderr))")
            #expect(shortcut.stderr.isEmpty, "\(arguments): \(shortcut.stderr)")
        }
        #expect(try await webauth.run(alone, ["token"]).stdout == (tokens["access_token"]?.stringValue ?? "-") + "\n")
        let credential = try JSONValue(parsing: try await webauth.run(alone, ["kubernetes-credential"], environment: ["KUBERNETES_EXEC_INFO": execInfo]).stdout)
        #expect(credential["apiVersion"] == .string("client.authentication.k8s.io/v1beta1") && credential["status"]?["expirationTimestamp"] != nil,
                "\(credential)")
        #expect(provider.refreshCount == 0, "a fresh token is printed as it is")
    }

    @Test("git-credential get and Docker's get (either name): the shortcut alone answers a mapped site with what webauth-tokens answers")
    func helpersSameBytes() async throws {
        let (provider, tokens) = try await webauth.signedIn()
        try mapHelperHosts()
        let alone = try await aloneFront()
        let docker = alone.deletingLastPathComponent().appendingPathComponent("docker-credential-webauth")
        try FileManager.default.createSymbolicLink(at: docker, withDestinationURL: alone)
        let git = "protocol=https\nhost=git.example.com\n\n"
        let cases: [(URL, [String], String, URL, [String])] = [
            (alone, ["git-credential", "get"], git, tokenCommands, ["git-credential", "get"]),
            (docker, ["get"], "https://registry.example.com\n", tokenCommands, ["docker-credential", "get"]),
            (alone, ["docker-credential", "get"], "registry.example.com", tokenCommands, ["docker-credential", "get"]),
        ]
        for (shortcutBinary, shortcutArguments, input, fullBinary, fullArguments) in cases {
            let shortcut = try await run(shortcutBinary, shortcutArguments, input: input)
            let full = try await run(fullBinary, fullArguments, input: input)
            #expect(shortcut.status == 0 && full.status == 0 && !shortcut.stdout.isEmpty && shortcut.stdout == full.stdout && shortcut.stderr.isEmpty,
                    "\(shortcutArguments): the shortcut printed \(shortcut.stdout) (\(shortcut.stderr)), webauth-tokens \(full.stdout) (\(full.stderr))")
        }
        #expect(try await run(alone, ["git-credential", "get"], input: git).stdout
                    == "username=oauth2\npassword=\(tokens["access_token"]?.stringValue ?? "-")\n")
        #expect(provider.refreshCount == 0)
    }

    @Test("a helper's request the shortcut read and cannot answer reaches webauth-tokens whole, a small one and one larger than a pipe holds")
    func helperInputHandedOn() async throws {
        let (provider, _) = try await webauth.signedIn(lifetime: 30)  // never fresh for the helpers' minute: webauth-tokens refreshes
        try mapHelperHosts()
        let alone = try await aloneFront()
        let unmapped = try await run(alone, ["git-credential", "get"], input: "protocol=https\nhost=elsewhere.example.com\n\n")
        #expect(unmapped.status == 1 && unmapped.stderr.contains("webauth-tokens, which runs this command"), "not ours: \(unmapped.stderr)")
        // The host comes last, after a path: webauth-tokens answers for it only if it read every
        // byte the shortcut had read, from a pipe (a small request) or from a child feeding one (2 MiB,
        // more than a pipe holds).
        for padding in [0, 2 << 20] {
            let request = "protocol=https\npath=\(String(repeating: "a", count: padding))\nhost=git.example.com\n\n"
            let answered = try await run(WebAuthBinary.binary, ["git-credential", "get"], input: request)
            #expect(answered.status == 0 && answered.stdout.hasPrefix("username=oauth2\npassword="), "\(padding): \(answered.stdout) \(answered.stderr)")
        }
        #expect(provider.refreshCount == 2, "each answer came from webauth-tokens' refresh")
    }

    @Test("an expiry reads as Foundation's .iso8601 writes it, to the whole second, fractions and far dates included")
    func expiryTimestamps() {
        for seconds in [0, 1_764_300_000.001, 1_764_300_000.5, 1_764_300_059.999, 2_147_483_648, 4_102_444_799.75] as [TimeInterval] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(UTCTimestamp.text(date) == date.formatted(.iso8601), "\(seconds)")
        }
    }

    @Test("hands on, as given, what it may not answer: a token to refresh, other options and commands, help, a configuration file, no saved sign-in")
    func handsOn() async throws {
        let (provider, _) = try await webauth.signedIn(lifetime: 300)
        let alone = try await aloneFront()
        let handedOn: [[String]] = [
            ["token", "--min-valid", "300"],  // less than that left: a refresh
            ["token", "--min-valid", "3000"],  // more than the provider's tokens live: webauth-tokens caps it, with a note
            ["token", "--scope", "profile"], ["token", "--refresh"], ["token", "--id-token"], ["token", "--help"], ["token", "--format", "yaml"],
            ["token", "--min-valid", "-5"], ["token", "--profile", "nobody"], ["token", "--profile", "a/b"], ["token", "--format", "json", "--format", "raw"],
            ["kubernetes-credential", "--timeout", "5"], ["status"], ["git-credential", "get"],
        ]
        for arguments in handedOn {
            let run = try await webauth.run(alone, arguments)
            #expect(run.status == 1 && run.stdout.isEmpty && run.stderr.contains("Error: webauth-tokens, which runs this command, is not installed"),
                    "\(arguments) was answered by the shortcut: \(run.status) \(run.stdout) \(run.stderr)")
        }
        // The engine's commands go to the engine directly, never through webauth-tokens.
        for arguments in [["login", "--help"], ["--help"], [], ["tokn"]] {
            let run = try await webauth.run(alone, arguments)
            #expect(run.status == 1 && run.stdout.isEmpty && run.stderr.contains("Error: webauth-engine, which runs this command, is not installed"),
                    "\(arguments): \(run.status) \(run.stdout) \(run.stderr)")
        }
        // With a configuration file, which can name the route of a refresh, webauth-tokens answers.
        try webauth.configure(#"{"ca_file": "/nonexistent.pem"}"#)
        let configured = try await webauth.run(alone, ["token"])
        #expect(configured.status == 1 && configured.stderr.contains("webauth-tokens, which runs this command"), "\(configured.stderr)")
        let full = try await webauth(["token"])
        #expect(full.status == 64 && full.stderr.contains("/nonexistent.pem"), "the route the file names is checked: \(full.stderr)")
        #expect(provider.refreshCount == 0)
    }

    @Test("handed on through the build's webauth: a token that must be refreshed is, and the next call's shortcut prints the new one")
    func refreshThenShortcut() async throws {
        let (provider, tokens) = try await webauth.signedIn(lifetime: 300)
        let refreshed = try await webauth(["token", "--min-valid", "300"])
        #expect(refreshed.status == 0 && refreshed.stdout != (tokens["access_token"]?.stringValue ?? "") + "\n" && provider.refreshCount == 1,
                "stderr: \(refreshed.stderr)")
        let alone = try await aloneFront()
        let next = try await webauth.run(alone, ["token", "--min-valid", "200"])
        #expect(next.status == 0 && next.stdout == refreshed.stdout, "the shortcut reads what the refresh saved: \(next.stderr)")
    }
}
