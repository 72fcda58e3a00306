import DevProvider
import Foundation
import OpenIDConnect
import TestSupport
import Testing
import WebAuthCommandLine

/// `webauth token`'s flags, `webauth exec` and `webauth env`, each after a real sign-in through
/// the development provider's page, with the built binary.
@Suite("token --min-valid/--scope/--resource/--id-token/--format, exec, env (the built binary)", .startsWebKit(minutes: 3))
struct TokenCommandTests {
    var webauth = WebAuthBinary()

    init() {
        webauth.environment["ALICE_PASSWORD"] = OpenIDProvider.User.alice.password
    }

    /// A provider whose tokens live `lifetime` seconds, and alice signed in to it (`openid profile
    /// email offline_access`) with the tokens of the sign-in.
    func signedIn(lifetime: Int = 3600) async throws -> (provider: OpenIDProvider, tokens: JSONValue) {
        try await webauth.signedIn(lifetime: lifetime)
    }

    /// The saved sign-in of the default profile, as the file holds it.
    func saved() throws -> JSONValue {
        let file = webauth.home.appendingPathComponent("state/webauthsession/default.json")
        return try #require(try JSONValue(parsing: String(contentsOf: file, encoding: .utf8))["state"])
    }

    /// The one line `run` printed on stdout.
    func line(_ run: WebAuthBinary.Run) -> String { run.stdout.trimmingCharacters(in: .newlines) }

    @Test("--min-valid: no refresh while the token has that long left, a refresh (saved) when it has less; negative is a usage error")
    func minimumValidity() async throws {
        let (provider, tokens) = try await signedIn(lifetime: 600)
        let kept = try await webauth(["token", "--min-valid", "300"])
        #expect(kept.status == 0 && line(kept) == tokens["access_token"]?.stringValue && provider.refreshCount == 0, "stderr: \(kept.stderr)")
        let renewed = try await webauth(["token", "--min-valid", "600"])  // as long as the provider gives: a refresh satisfies it
        #expect(renewed.status == 0 && line(renewed) != line(kept) && provider.refreshCount == 1, "stderr: \(renewed.stderr)")
        #expect(line(try await webauth(["token"])) == line(renewed), "the new token was saved")
        let negative = try await webauth(["token", "--min-valid", "-5"])
        #expect(negative.status == 64 && negative.stderr.contains("--min-valid"), "stderr: \(negative.stderr)")
    }

    /// Before: with 300-second tokens, --min-valid 3000 refreshed on every call and said nothing.
    @Test("--min-valid beyond what the provider's tokens live: no refresh while the token is as fresh as a refresh would make it, and a note says so")
    func minValidBeyondLifetime() async throws {
        let (provider, tokens) = try await signedIn(lifetime: 300)
        let refreshes = provider.refreshCount
        for _ in 0..<3 {
            let run = try await webauth(["token", "--min-valid", "3000"])
            #expect(run.status == 0 && line(run) == tokens["access_token"]?.stringValue, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("the provider's access tokens live 300 s, less than --min-valid 3000"), "stderr: \(run.stderr)")
        }
        #expect(provider.refreshCount == refreshes, "no refresh spent on a token as fresh as the provider gives")
        #expect(AccessToken.reachableValidity(.seconds(3000), lifetime: 300) == .seconds(240))
        #expect(AccessToken.reachableValidity(.seconds(3000), lifetime: 30) == .seconds(15))
        #expect(AccessToken.reachableValidity(.seconds(60), lifetime: 300) == .seconds(60))
    }

    @Test("--scope: a narrower token cached apart; the main token, its scopes and the rotated refresh token saved; a wider scope exits 3")
    func scope() async throws {
        let (provider, tokens) = try await signedIn()
        let scoped = try await webauth(["token", "--scope", "profile", "--scope", "email", "--format", "json"])
        #expect(scoped.status == 0, "stderr: \(scoped.stderr)")
        let json = try JSONValue(parsing: scoped.stdout)
        let token = try #require(json["access_token"]?.stringValue)
        #expect(json["scope"] == .string("email profile") && token != tokens["access_token"]?.stringValue)
        #expect(try await introspect(token, issuer: provider.issuer)["scope"] == .string("email profile"))
        let state = try saved()
        #expect(state["last_token_response"]?["access_token"] == tokens["access_token"], "the main token stays")
        #expect(state["last_token_response"]?["scope"] == .string("openid profile email offline_access"), "and its scopes")
        #expect(state["last_token_response"]?["refresh_token"] != tokens["refresh_token"] && provider.liveRefreshTokenCount == 1,
                "the rotated refresh token replaced the spent one")
        #expect(line(try await webauth(["token", "--scope", "email profile"])) == token && provider.refreshCount == 1, "cached")
        #expect(line(try await webauth(["token"])) == tokens["access_token"]?.stringValue)

        let wider = try await webauth(["token", "--scope", "admin"])
        #expect(wider.status == 3 && wider.stdout.isEmpty, "stderr: \(wider.stderr)")
        #expect(wider.stderr.contains("invalid_scope") && wider.stderr.contains("scope 'admin'") && wider.stderr.contains("webauth status"),
                "stderr: \(wider.stderr)")
        #expect(try await webauth(["token", "--refresh"]).status == 0, "the sign-in still refreshes")
    }

    @Test("--resource and its alias --audience: the token's aud is the resource; not an absolute URI is a usage error")
    func resource() async throws {
        let (provider, tokens) = try await signedIn()
        let api = try await webauth(["token", "--audience", "https://api.example.com/"])
        #expect(api.status == 0 && line(api) != tokens["access_token"]?.stringValue, "stderr: \(api.stderr)")
        #expect(try await introspect(line(api), issuer: provider.issuer)["aud"] == .array([.string("https://api.example.com/")]))
        #expect(line(try await webauth(["token", "--resource", "https://api.example.com/"])) == line(api) && provider.refreshCount == 1)
        let relative = try await webauth(["token", "--resource", "api.example.com"])
        #expect(relative.status == 64 && relative.stderr.contains("absolute URI"), "stderr: \(relative.stderr)")
    }

    @Test("--id-token: the ID token, renewed when it expires within --min-valid; raw or header; not with --scope or --format json")
    func idToken() async throws {
        let (_, tokens) = try await signedIn(lifetime: 600)
        let kept = try await webauth(["token", "--id-token", "--min-valid", "300"])
        #expect(kept.status == 0 && line(kept) == tokens["id_token"]?.stringValue, "stderr: \(kept.stderr)")
        let renewed = try await webauth(["token", "--id-token", "--min-valid", "900", "--format", "header"])
        #expect(renewed.status == 0, "stderr: \(renewed.stderr)")
        let header = line(renewed)
        #expect(header.hasPrefix("Authorization: Bearer ey") && !header.hasSuffix(line(kept)), "a new ID token: \(header.prefix(30))")
        #expect(header == "Authorization: Bearer " + (try saved()["id_token"]?["rawValue"]?.stringValue ?? "-"), "the saved one")
        for refused in [["--scope", "profile"], ["--format", "json"]] {
            let run = try await webauth(["token", "--id-token"] + refused)
            #expect(run.status == 64 && run.stderr.contains("--id-token"), "\(refused): \(run.stderr)")
        }
    }

    @Test("--format raw, header, json (matching docs/schemas/token.schema.json): one token; an unknown format is a usage error")
    func formats() async throws {
        let (_, tokens) = try await signedIn()
        let token = try #require(tokens["access_token"]?.stringValue)
        #expect(try await webauth(["token", "--format", "raw"]).stdout == token + "\n")
        #expect(try await webauth(["token", "--format", "header"]).stdout == "Authorization: Bearer \(token)\n")
        let json = try await webauth(["token", "--format", "json"])
        let fields = try JSONValue(parsing: json.stdout)
        #expect(fields["access_token"] == .string(token) && fields["token_type"] == .string("Bearer"))
        #expect(fields["scope"] == .string("openid profile email offline_access") && fields["expires_at"] == tokens["access_token_expires_at"])
        let check = try await webauth.run(InterfaceTests.root.appendingPathComponent("scripts/check-json-schema"),
                                          [InterfaceTests.root.appendingPathComponent("docs/schemas/token.schema.json").path,
                                           try webauth.file("token.json", json.stdout)])
        #expect(check.status == 0, "\(check.stdout)")
        let strict = try await webauth.run(InterfaceTests.root.appendingPathComponent("scripts/check-json-schema"),
                                           [InterfaceTests.root.appendingPathComponent("docs/schemas/token.schema.json").path,
                                            try webauth.file("wrong.json", #"{"access_token": "t", "token_type": "Bearer", "expires_at": 5, "scope": null}"#)])
        #expect(strict.status == 1, "a number for expires_at is refused")
        #expect(try await webauth(["token", "--format", "xml"]).status == 64)
    }

    @Test("exec: the program gets the token in $ACCESS_TOKEN (or --variable), replaces webauth (same pid, no signal blocked), and its exit status is the command's")
    func exec() async throws {
        let (_, tokens) = try await signedIn()
        let token = try #require(tokens["access_token"]?.stringValue)
        let ok = try await webauth(["exec", "--", "/bin/sh", "-c", #"test -n "$ACCESS_TOKEN" && echo ok; exit 42"#])
        #expect(ok.status == 42 && ok.stdout == "ok\n", "stderr: \(ok.stderr)")
        let named = try await webauth(["exec", "--variable", "API_TOKEN", "--", "sh", "-c", #"printf %s "$API_TOKEN""#])
        #expect(named.status == 0 && named.stdout == token, "stderr: \(named.stderr)")

        let output = webauth.home.appendingPathComponent("exec.out")
        // The shell reads its own status (a builtin: a child's view of it races with the shell's wait).
        let report = #"echo $$; while read -r line; do case $line in SigBlk:*) echo "$line";; esac; done < /proc/self/status; kill -TERM $$"#
        let started = try webauth.start(["exec", "--", "/bin/sh", "-c", report], stdout: output)
        #expect(await started.status.value == 128 + SIGTERM, "the program's own death by SIGTERM")
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "\(started.pid)"[...], "the program runs in webauth's process: \(lines)")
        #expect(lines.last?.hasSuffix("0000000000000000") == true && lines.last?.hasPrefix("SigBlk:") == true, "\(lines)")

        let missing = try await webauth(["exec", "--", "no-such-program-here"])
        #expect(missing.status == 127 && missing.stderr.contains("no-such-program-here") && !missing.stderr.contains(token),
                "stderr: \(missing.stderr)")
        #expect(try await webauth(["exec", "--", "/etc/passwd"]).status == 126)
        let empty = try await webauth(["exec"])
        #expect(empty.status == 64 && empty.stderr.contains("webauth exec -- CMD"), "stderr: \(empty.stderr)")
        #expect(try await webauth(["exec", "--variable", "1BAD", "--", "true"]).status == 64)
    }

    @Test("env prints an export line that /bin/sh evals to the same token as webauth token; with --scope, the scoped token")
    func env() async throws {
        let (_, tokens) = try await signedIn()
        let printed = try await webauth(["env"])
        #expect(printed.status == 0 && printed.stdout.hasPrefix("export ACCESS_TOKEN='"), "stderr: \(printed.stderr)")
        let path = WebAuthBinary.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let evaluated = try await webauth.run(URL(fileURLWithPath: "/bin/sh"), ["-c", #"eval "$(webauth env --variable T)" && printf %s "$T""#],
                                              environment: ["PATH": path])
        let token = line(try await webauth(["token"]))
        #expect(evaluated.status == 0 && evaluated.stdout == token, "stderr: \(evaluated.stderr)")
        #expect(evaluated.stdout == tokens["access_token"]?.stringValue)
        let scoped = try await webauth.run(URL(fileURLWithPath: "/bin/sh"), ["-c", #"eval "$(webauth env --scope profile)" && printf %s "$ACCESS_TOKEN""#],
                                           environment: ["PATH": path])
        let scopedToken = line(try await webauth(["token", "--scope", "profile"]))
        #expect(scoped.status == 0 && scoped.stdout == scopedToken && scopedToken != token, "stderr: \(scoped.stderr)")
        #expect(try await webauth(["env", "--variable", "A-B"]).status == 64)
    }
}
